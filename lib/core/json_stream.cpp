#include "core/json_stream.hpp"

#include <charconv>
#include <cmath>
#include <iterator>
#include <utility>

namespace icnkit {

namespace {

using string_t = json::string_t;
using binary_t = json::binary_t;
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// Builds a tree from SAX events as nlohmann's own DOM parser (json_sax_dom_parser) does: the same
// values, and a repeated key keeps its last value.
class Tree {
public:
  explicit Tree(json& root) : root_(root) {}
  template <class V> json* add(V&& v) {
    if (stack_.empty()) {
      root_ = json(std::forward<V>(v));
      return &root_;
    }
    json& top = *stack_.back();
    if (top.is_array()) {
      auto& a = top.get_ref<json::array_t&>();
      a.emplace_back(std::forward<V>(v));
      return &a.back();
    }
    *slot_ = json(std::forward<V>(v));
    return slot_;
  }
  void open(json* container) { stack_.push_back(container); }
  void close() { stack_.pop_back(); }
  void key(const string_t& k) { slot_ = &stack_.back()->get_ref<json::object_t&>()[k]; }
  std::size_t depth() const { return stack_.size(); }
  const json& at(std::size_t level) const { return *stack_[level]; }

private:
  json& root_;
  std::vector<json*> stack_;
  json* slot_ = nullptr;
};

// The parser's input: a character iterator whose position lives outside it, so the SAX handler
// learns the byte offset of an array's brackets (the parser keeps its own copies of iterators).
struct Cursor {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  const char** at;
  const char& operator*() const { return **at; }
  Cursor& operator++() {
    ++*at;
    return *this;
  }
  Cursor operator++(int) {
    Cursor c = *this;
    ++*at;
    return c;
  }
  friend bool operator!=(const Cursor& a, const Cursor& b) { return *a.at != *b.at; }
};

// A fast, strict look over an array: true when it is JSON that nlohmann's parser reads the same
// way, with its closing bracket, element count and first element that is not an object. It says
// false (the parser then reads the array itself, errors and all) on anything it is not sure of:
// escapes or bytes past ASCII in strings, integers of more than 18 characters, floats that are
// not finite or underflow, any syntax error. Nesting is bounded by precheck_json.
class Skim {
public:
  Skim(const char* p, const char* end) : p_(p), end_(end) {}
  bool array(const char*& close, std::size_t& count, std::size_t& first_non_object) {
    ++p_; // '['
    if (!ws()) return false;
    if (*p_ != ']')
      for (;;) {
        const bool object = *p_ == '{';
        if (!value()) return false;
        if (!object && first_non_object == kNone) first_non_object = count;
        ++count;
        if (!ws()) return false;
        if (*p_ == ']') break;
        if (*p_ != ',') return false;
        ++p_;
        if (!ws()) return false;
      }
    close = p_;
    return true;
  }

private:
  bool ws() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
    return p_ < end_;
  }
  static bool digit(char c) { return c >= '0' && c <= '9'; }
  bool value() {
    switch (*p_) {
    case '{':
      ++p_;
      if (!ws()) return false;
      if (*p_ == '}') return ++p_, true;
      for (;;) {
        if (*p_ != '"' || !string() || !ws() || *p_ != ':') return false;
        ++p_;
        if (!ws() || !value() || !ws()) return false;
        if (*p_ == '}') return ++p_, true;
        if (*p_ != ',') return false;
        ++p_;
        if (!ws()) return false;
      }
    case '[':
      ++p_;
      if (!ws()) return false;
      if (*p_ == ']') return ++p_, true;
      for (;;) {
        if (!value() || !ws()) return false;
        if (*p_ == ']') return ++p_, true;
        if (*p_ != ',') return false;
        ++p_;
        if (!ws()) return false;
      }
    case '"':
      return string();
    case 't':
      return literal("true");
    case 'f':
      return literal("false");
    case 'n':
      return literal("null");
    default:
      return number();
    }
  }
  bool string() {
    for (++p_; p_ < end_; ++p_) {
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') return ++p_, true;
      if (c < 0x20 || c == '\\' || c >= 0x80) return false;
    }
    return false;
  }
  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() ||
        word.compare(0, word.size(), p_, word.size()) != 0)
      return false;
    p_ += word.size();
    return true;
  }
  bool number() {
    const char* start = p_;
    if (*p_ == '-') ++p_;
    if (p_ == end_) return false;
    if (*p_ == '0')
      ++p_;
    else if (*p_ >= '1' && *p_ <= '9')
      while (p_ < end_ && digit(*p_)) ++p_;
    else
      return false;
    bool real = false;
    if (p_ < end_ && *p_ == '.') {
      real = true;
      if (++p_ == end_ || !digit(*p_)) return false;
      while (p_ < end_ && digit(*p_)) ++p_;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      real = true;
      if (++p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !digit(*p_)) return false;
      while (p_ < end_ && digit(*p_)) ++p_;
    }
    if (!real) return p_ - start <= 18; // no overflow: read as an integer
    double d = 0;
    const auto r = std::from_chars(start, p_, d);
    return r.ec == std::errc() && r.ptr == p_ && std::isfinite(d);
  }

  const char* p_;
  const char* end_;
};

// Reads the elements of an array Skim accepted into trees: the values nlohmann's parser makes of
// the same text (integers unsigned unless negative, floats correctly rounded, a repeated key's
// last value).
class FastElements {
public:
  explicit FastElements(const char* p) : p_(p) {}
  template <class Each> void run(Each&& each) {
    ++p_; // '['
    ws();
    if (*p_ == ']') return;
    for (std::size_t i = 0;; ++i) {
      element_ = value();
      each(element_, i);
      ws();
      if (*p_ != ',') return;
      ++p_;
    }
  }

private:
  void ws() {
    while (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t') ++p_;
  }
  json value() {
    ws();
    switch (*p_) {
    case '{': {
      ++p_;
      json o(json::value_t::object);
      auto& members = o.get_ref<json::object_t&>();
      ws();
      if (*p_ == '}') return ++p_, o;
      for (;;) {
        ws();
        const char* k = ++p_;
        while (*p_ != '"') ++p_;
        std::string key(k, p_);
        ++p_;
        ws();
        ++p_;                              // ':'
        members[std::move(key)] = value(); // after the value: a repeated key keeps the last
        ws();
        if (*p_++ == '}') return o;
      }
    }
    case '[': {
      ++p_;
      json a(json::value_t::array);
      auto& items = a.get_ref<json::array_t&>();
      ws();
      if (*p_ == ']') return ++p_, a;
      for (;;) {
        items.push_back(value());
        ws();
        if (*p_++ == ']') return a;
      }
    }
    case '"': {
      const char* b = ++p_;
      while (*p_ != '"') ++p_;
      return json(std::string(b, p_++));
    }
    case 't':
      return p_ += 4, json(true);
    case 'f':
      return p_ += 5, json(false);
    case 'n':
      return p_ += 4, json(nullptr);
    default:
      return number();
    }
  }
  json number() {
    const char* start = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    std::uint64_t v = 0;
    while (*p_ >= '0' && *p_ <= '9') v = v * 10 + static_cast<std::uint64_t>(*p_++ - '0');
    if (*p_ != '.' && *p_ != 'e' && *p_ != 'E')
      return negative ? json(-static_cast<std::int64_t>(v)) : json(v);
    while ((*p_ >= '0' && *p_ <= '9') || *p_ == '.' || *p_ == 'e' || *p_ == 'E' || *p_ == '+' ||
           *p_ == '-')
      ++p_;
    double d = 0;
    std::from_chars(start, p_, d);
    return json(d);
  }

  const char* p_;
  json element_;
};

// Pass over the whole text: the tree, but the arrays at `paths` only located and counted.
class Outline {
public:
  // With `skim`, an array Skim accepts is not shown to the parser at all: the cursor moves to its
  // closing bracket (the parser's line and column are then off: on an error, parse again
  // without).
  Outline(json& root, const char*& cursor, const std::string& text,
          const std::vector<std::vector<std::string>>& paths,
          std::vector<StreamedArrays::Array>& arrays, bool skim)
      : tree_(root), cursor_(cursor), text_(text), paths_(paths), arrays_(arrays), skim_(skim) {
    std::size_t longest = 0;
    for (auto& p : paths_) longest = std::max(longest, p.size());
    keys_.resize(longest);
  }

  bool null() { return skip_ ? element(false) : (tree_.add(nullptr), true); }
  bool boolean(bool v) { return skip_ ? element(false) : (tree_.add(v), true); }
  bool number_integer(json::number_integer_t v) {
    return skip_ ? element(false) : (tree_.add(v), true);
  }
  bool number_unsigned(json::number_unsigned_t v) {
    return skip_ ? element(false) : (tree_.add(v), true);
  }
  bool number_float(json::number_float_t v, const string_t&) {
    return skip_ ? element(false) : (tree_.add(v), true);
  }
  bool string(string_t& v) { return skip_ ? element(false) : (tree_.add(v), true); }
  bool binary(binary_t& v) { return skip_ ? element(false) : (tree_.add(v), true); }
  bool start_object(std::size_t) {
    if (skip_) {
      element(true);
      ++skip_;
      return true;
    }
    tree_.open(tree_.add(json::value_t::object));
    return true;
  }
  bool key(string_t& k) {
    if (skip_) return true;
    if (const std::size_t d = tree_.depth(); d <= keys_.size()) keys_[d - 1] = k;
    tree_.key(k);
    return true;
  }
  bool end_object() {
    if (skip_)
      --skip_;
    else
      tree_.close();
    return true;
  }
  bool start_array(std::size_t) {
    if (skip_) {
      element(false);
      ++skip_;
      return true;
    }
    if (streamed_here()) {
      StreamedArrays::Array a;
      a.begin = offset() - 1;
      a.first_non_object = kNone;
      if (text_[a.begin] != '[') fail_runtime("json stream", "lost the position of an array");
      tree_.add(json::binary({}, arrays_.size()));
      const char* close = nullptr;
      if (skim_ && Skim(text_.data() + a.begin, text_.data() + text_.size())
                       .array(close, a.count, a.first_non_object)) {
        a.skimmed = true;
        cursor_ = close; // the parser reads the ']' next
        skimmed_ = true;
      } else {
        a.count = 0;
        a.first_non_object = kNone;
      }
      arrays_.push_back(std::move(a));
      skip_ = 1;
      return true;
    }
    tree_.open(tree_.add(json::value_t::array));
    return true;
  }
  bool end_array() {
    if (!skip_) {
      tree_.close();
    } else if (--skip_ == 0) {
      arrays_.back().end = offset();
      if (text_[arrays_.back().end - 1] != ']')
        fail_runtime("json stream", "lost the position of an array");
    }
    return true;
  }
  template <class Exception> bool parse_error(std::size_t, const std::string&, const Exception& e) {
    throw e; // as json_sax_dom_parser: parse_json's messages follow
  }
  bool skimmed() const { return skimmed_; }

private:
  std::size_t offset() const { return static_cast<std::size_t>(cursor_ - text_.data()); }
  // An element of the array being skipped, or something inside one.
  bool element(bool object) {
    if (skip_ == 1) {
      StreamedArrays::Array& a = arrays_.back();
      if (!object && a.first_non_object == kNone) a.first_non_object = a.count;
      ++a.count;
    }
    return true;
  }
  // Whether the array about to open is a member at one of the paths.
  bool streamed_here() const {
    const std::size_t d = tree_.depth();
    for (auto& p : paths_) {
      if (p.size() != d) continue;
      bool match = true;
      for (std::size_t k = 0; k < d && match; ++k)
        match = tree_.at(k).is_object() && keys_[k] == p[k];
      if (match) return true;
    }
    return false;
  }

  Tree tree_;
  const char*& cursor_;
  const std::string& text_;
  const std::vector<std::vector<std::string>>& paths_;
  std::vector<StreamedArrays::Array>& arrays_;
  const bool skim_;
  bool skimmed_ = false;
  std::vector<std::string> keys_; // the current key of each open object, to the longest path
  std::size_t skip_ = 0;          // depth inside the array being skipped (0: none)
};

// Pass over one streamed array: each element (an object) built as a tree and handed on.
class Elements {
public:
  explicit Elements(const std::function<void(const json&, std::size_t)>& each)
      : tree_(element_), each_(each) {}

  bool null() { return scalar(nullptr); }
  bool boolean(bool v) { return scalar(v); }
  bool number_integer(json::number_integer_t v) { return scalar(v); }
  bool number_unsigned(json::number_unsigned_t v) { return scalar(v); }
  bool number_float(json::number_float_t v, const string_t&) { return scalar(v); }
  bool string(string_t& v) { return scalar(v); }
  bool binary(binary_t& v) { return scalar(v); }
  bool start_object(std::size_t) {
    tree_.open(tree_.add(json::value_t::object));
    return true;
  }
  bool key(string_t& k) {
    tree_.key(k);
    return true;
  }
  bool end_object() {
    tree_.close();
    if (tree_.depth() == 0) each_(element_, index_++);
    return true;
  }
  bool start_array(std::size_t) {
    if (!inside_) {
      inside_ = true; // the streamed array itself
      return true;
    }
    if (tree_.depth() == 0) fail_runtime("json stream", "an element is not an object");
    tree_.open(tree_.add(json::value_t::array));
    return true;
  }
  bool end_array() {
    if (tree_.depth() > 0) tree_.close();
    return true;
  }
  template <class Exception> bool parse_error(std::size_t, const std::string&, const Exception& e) {
    throw e; // cannot happen: the outline parsed this text already
  }

private:
  template <class V> bool scalar(V&& v) {
    if (tree_.depth() == 0) fail_runtime("json stream", "an element is not an object");
    tree_.add(std::forward<V>(v));
    return true;
  }

  json element_;
  Tree tree_;
  const std::function<void(const json&, std::size_t)>& each_;
  bool inside_ = false;
  std::size_t index_ = 0;
};

// The reference tokens of a JSON pointer, unescaped ("/a~1b" -> {"a/b"}).
std::vector<std::string> tokens_of(const std::string& pointer) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < pointer.size(); ++i) {
    if (pointer[i] == '/') {
      out.emplace_back();
      continue;
    }
    if (out.empty()) out.emplace_back();
    if (pointer[i] == '~' && i + 1 < pointer.size()) {
      out.back() += pointer[i + 1] == '1' ? '/' : '~';
      ++i;
    } else {
      out.back() += pointer[i];
    }
  }
  return out;
}

} // namespace

StreamedArrays::StreamedArrays(const std::string& text, const std::vector<std::string>& pointers)
    : text_(text) {
  for (auto& p : pointers)
    if (auto t = tokens_of(p); !t.empty()) paths_.push_back(std::move(t));
}

StreamedArrays::~StreamedArrays() = default;

json StreamedArrays::parse(const std::string& source) {
  precheck_json(text_, source);
  // Skimming first; on an error, again without, for the parser's own line and column.
  for (bool skim : {true, false}) {
    arrays_.clear();
    json root;
    const char* cursor = text_.data();
    const char* end = text_.data() + text_.size();
    Outline outline(root, cursor, text_, paths_, arrays_, skim);
    try {
      json::sax_parse(Cursor{&cursor}, Cursor{&end}, &outline);
      return root;
    } catch (const json::exception&) {
      if (!outline.skimmed()) rethrow_json_error(source);
    }
  }
  fail_runtime(source, "JSON reader: unreachable"); // the second pass skims nothing
}

bool StreamedArrays::is_placeholder(const json& v) const {
  return v.is_binary() && v.get_binary().has_subtype() && v.get_binary().subtype() < arrays_.size();
}

const StreamedArrays::Array& StreamedArrays::array(const json& placeholder) const {
  return arrays_[static_cast<std::size_t>(placeholder.get_binary().subtype())];
}

void StreamedArrays::for_each(const json& placeholder, const std::string& source,
                              const std::string& base,
                              const std::function<void(std::size_t)>& count,
                              const std::function<void(ObjReader&, std::size_t)>& each) const {
  const Array& a = array(placeholder);
  if (a.first_non_object != kNone)
    fail_input(source + ":" + base + std::to_string(a.first_non_object), "expected an object");
  count(a.count);
  const std::function<void(const json&, std::size_t)> element = [&](const json& e, std::size_t i) {
    ObjReader o(e, source, base + std::to_string(i), this);
    each(o, i);
  };
  if (a.skimmed) {
    FastElements(text_.data() + a.begin).run(element);
    return;
  }
  Elements handler(element);
  const char* first = text_.data() + a.begin;
  json::sax_parse(first, text_.data() + a.end, &handler);
}

const json& StreamedArrays::tree(const json& placeholder) const {
  const Array& a = array(placeholder);
  if (!a.tree)
    a.tree = std::make_unique<json>(json::parse(text_.data() + a.begin, text_.data() + a.end));
  return *a.tree;
}

} // namespace icnkit
