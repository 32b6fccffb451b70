#include "core/json_reader.hpp"

#include <algorithm>
#include <cmath>

namespace icnkit {

namespace {
// "line L, column C" of byte `offset` of `text` (both from 1, as the JSON parser counts).
std::string position(const std::string& text, std::size_t offset) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n')
      ++line, col = 1;
    else
      ++col;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

} // namespace

// Checks what the parser cannot be trusted with: NUL bytes and the nesting depth. Brackets inside
// strings do not count; the text need not be valid JSON (the parser reports that).
void precheck_json(const std::string& text, const std::string& source) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\0') fail_input(source, "NUL byte at " + position(text, i) + ": not a JSON text");
    if (in_string) {
      if (c == '\\')
        ++i; // the escaped character cannot end the string
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        fail_input(source, "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels at " +
                               position(text, i));
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

void rethrow_json_error(const std::string& source) {
  try {
    throw;
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    auto pos = what.find("parse error");
    fail_input(source, "not JSON: " + (pos == std::string::npos ? what : what.substr(pos)));
  } catch (const json::out_of_range& e) {
    // 406: "number overflow parsing '1e400'" (the only out_of_range the parser throws).
    std::string what = e.what();
    auto q = what.find('\'');
    std::string number = q == std::string::npos ? what : what.substr(q);
    fail_input(source, "number " + number + " is out of range (a double holds up to 1.8e308)");
  } catch (const json::exception& e) {
    fail_input(source, std::string("not JSON: ") + e.what());
  }
}

json parse_json(const std::string& text, const std::string& source) {
  precheck_json(text, source);
  try {
    return json::parse(text);
  } catch (const json::exception&) {
    rethrow_json_error(source);
  }
}

std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

ObjReader::ObjReader(const json& j, std::string source, std::string pointer,
                     const ArraySource* streamed)
    : j_(j), source_(std::move(source)), pointer_(std::move(pointer)), streamed_(streamed) {
  if (!j_.is_object()) fail_input(where(), "expected an object");
}

std::string ObjReader::where() const {
  return source_ + ":" + (pointer_.empty() ? "/" : pointer_);
}
std::string ObjReader::where(const std::string& key) const {
  return source_ + ":" + pointer_ + "/" + pointer_token(key);
}
void ObjReader::fail(const std::string& key, const std::string& what) const {
  fail_input(where(key), what);
}

void ObjReader::mark(const json* value) {
  if (std::find(used_.begin(), used_.end(), value) == used_.end()) used_.push_back(value);
}

bool ObjReader::has(const std::string& key) const {
  return j_.contains(key);
}

const json& ObjReader::value(const json& v) const {
  return streamed_ && streamed_->is_placeholder(v) ? streamed_->tree(v) : v;
}

const json& ObjReader::raw(const std::string& key) {
  auto it = j_.find(key);
  if (it == j_.end()) fail_input(where(), "missing key \"" + key + "\"");
  mark(&*it);
  return value(*it);
}
const json* ObjReader::raw_opt(const std::string& key) {
  auto it = j_.find(key);
  if (it == j_.end() || it->is_null()) {
    if (it != j_.end()) mark(&*it);
    return nullptr;
  }
  mark(&*it);
  return &value(*it);
}

namespace {
// The JSON pointer of a value is built only when there is an error to report: reading a
// 4096-chip network touches ~150k values, and building their pointers up front was costly.
template <class Where>
std::int64_t integer_at(const json& v, const Where& where, std::int64_t lo, std::int64_t hi) {
  std::int64_t x = 0;
  if (v.is_number_integer()) {
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
      fail_input(where(), "integer out of range");
    x = v.get<std::int64_t>();
  } else if (v.is_number_float()) {
    double d = v.get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e15)
      fail_input(where(), "expected an integer");
    x = static_cast<std::int64_t>(d);
  } else {
    fail_input(where(), "expected an integer");
  }
  if (x < lo || x > hi)
    fail_input(where(), "value " + std::to_string(x) + " out of range [" + std::to_string(lo) +
                            ", " + std::to_string(hi) + "]");
  return x;
}

template <class Where> double number_at(const json& v, const Where& where) {
  if (!v.is_number()) fail_input(where(), "expected a number");
  double d = v.get<double>();
  if (!std::isfinite(d)) fail_input(where(), "expected a finite number");
  return d;
}
} // namespace

std::int64_t as_integer(const json& v, const std::string& where, std::int64_t lo, std::int64_t hi) {
  return integer_at(
      v, [&] { return where; }, lo, hi);
}

double as_number(const json& v, const std::string& where) {
  return number_at(v, [&] { return where; });
}

std::int64_t ObjReader::integer(const std::string& key, std::int64_t lo, std::int64_t hi) {
  return integer_at(
      raw(key), [&] { return where(key); }, lo, hi);
}
std::optional<std::int64_t> ObjReader::integer_opt(const std::string& key, std::int64_t lo,
                                                   std::int64_t hi) {
  const json* v = raw_opt(key);
  if (!v) return std::nullopt;
  return integer_at(
      *v, [&] { return where(key); }, lo, hi);
}
std::optional<std::uint64_t> ObjReader::uint64_opt(const std::string& key) {
  const json* v = raw_opt(key);
  if (!v) return std::nullopt;
  if (v->is_number_unsigned()) return v->get<std::uint64_t>();
  return static_cast<std::uint64_t>(integer_at(
      *v, [&] { return where(key); }, 0, INT64_MAX));
}
double ObjReader::number(const std::string& key) {
  return number_at(raw(key), [&] { return where(key); });
}
double ObjReader::positive(const std::string& key) {
  double d = number(key);
  if (!(d > 0)) fail(key, "expected a positive number");
  return d;
}
std::optional<double> ObjReader::number_opt(const std::string& key) {
  const json* v = raw_opt(key);
  if (!v) return std::nullopt;
  return number_at(*v, [&] { return where(key); });
}
std::string ObjReader::string(const std::string& key) {
  const json& v = raw(key);
  if (!v.is_string()) fail(key, "expected a string");
  return v.get<std::string>();
}
std::optional<std::string> ObjReader::string_opt(const std::string& key) {
  const json* v = raw_opt(key);
  if (!v) return std::nullopt;
  if (!v->is_string()) fail(key, "expected a string");
  return v->get<std::string>();
}
bool ObjReader::boolean(const std::string& key) {
  const json& v = raw(key);
  if (!v.is_boolean()) fail(key, "expected true or false");
  return v.get<bool>();
}
std::optional<bool> ObjReader::boolean_opt(const std::string& key) {
  const json* v = raw_opt(key);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) fail(key, "expected true or false");
  return v->get<bool>();
}
std::vector<std::int64_t> ObjReader::int_list(const std::string& key, std::int64_t lo,
                                              std::int64_t hi) {
  const json& v = raw(key);
  if (!v.is_array()) fail(key, "expected an array of integers");
  std::vector<std::int64_t> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    out.push_back(integer_at(
        v[i], [&] { return where(key) + "/" + std::to_string(i); }, lo, hi));
  return out;
}
std::vector<std::string> ObjReader::string_list(const std::string& key) {
  const json& v = raw(key);
  if (!v.is_array()) fail(key, "expected an array of strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string()) fail_input(where(key) + "/" + std::to_string(i), "expected a string");
    out.push_back(v[i].get<std::string>());
  }
  return out;
}
ObjReader ObjReader::object(const std::string& key) {
  return ObjReader(raw(key), source_, pointer_ + "/" + pointer_token(key), streamed_);
}
std::optional<ObjReader> ObjReader::object_opt(const std::string& key) {
  const json* v = raw_opt(key);
  if (!v) return std::nullopt;
  return ObjReader(*v, source_, pointer_ + "/" + pointer_token(key), streamed_);
}
std::vector<ObjReader> ObjReader::objects(const std::string& key) {
  const json& v = raw(key);
  if (!v.is_array()) fail(key, "expected an array");
  std::vector<ObjReader> out;
  out.reserve(v.size());
  std::string base = pointer_ + "/" + pointer_token(key) + "/";
  for (std::size_t i = 0; i < v.size(); ++i)
    out.emplace_back(v[i], source_, base + std::to_string(i), streamed_);
  return out;
}
void ObjReader::for_each_object(const std::string& key,
                                const std::function<void(std::size_t)>& count,
                                const std::function<void(ObjReader&, std::size_t)>& each) {
  auto it = j_.find(key);
  if (it == j_.end()) fail_input(where(), "missing key \"" + key + "\"");
  mark(&*it);
  const std::string base = pointer_ + "/" + pointer_token(key) + "/";
  if (streamed_ && streamed_->is_placeholder(*it)) {
    streamed_->for_each(*it, source_, base, count, each);
    return;
  }
  const json& v = *it;
  if (!v.is_array()) fail(key, "expected an array");
  // As objects(): every element is known to be an object before the first is read.
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!v[i].is_object())
      fail_input(source_ + ":" + base + std::to_string(i), "expected an object");
  count(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    ObjReader o(v[i], source_, base + std::to_string(i), streamed_);
    each(o, i);
  }
}
const json* ObjReader::ext() {
  const json* v = raw_opt("ext");
  if (v && !v->is_object()) fail("ext", "expected an object");
  return v;
}

void ObjReader::done() const {
  for (auto it = j_.begin(); it != j_.end(); ++it) {
    if (std::find(used_.begin(), used_.end(), &it.value()) != used_.end()) continue;
    // "ext" is read (and kept) where a reader asks for it, the document's top level: anywhere
    // else it would be dropped on the way through a tool, so it is refused.
    if (it.key() == "ext")
      fail_input(where(it.key()), "\"ext\" is kept at the document's top level (/ext) only: "
                                  "put your metadata there");
    fail_input(where(it.key()), "unknown key \"" + it.key() + "\"");
  }
}

} // namespace icnkit
