// Strict reading of JSON objects: every key read is remembered, done() rejects the rest
// (except "ext", kept for users' own metadata). Errors name the source and the JSON pointer.
#pragma once
#include "core/error.hpp"
#include "core/json.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace icnkit {

// Deepest nesting of arrays and objects a document may have (the icnkit sections need 6; the
// rest is room for "ext"). Deeper text is refused before it is parsed, so no recursive walk over
// the tree (copy, dump, destruction) can overflow the stack.
inline constexpr int kMaxJsonDepth = 256;

// Parses one JSON text strictly; every failure is Error(Input) at `source` with line and column:
// not JSON, a NUL byte anywhere (the parser would stop there and ignore what follows), nesting
// deeper than kMaxJsonDepth, a number outside the range of a double (1e400).
json parse_json(const std::string& text, const std::string& source);

// The checks parse_json makes before parsing (NUL bytes, nesting depth), and the translation of
// the parser's exceptions into its Error(Input): call from inside a catch block.
void precheck_json(const std::string& text, const std::string& source);
[[noreturn]] void rethrow_json_error(const std::string& source);

class ObjReader;

// Arrays a document leaves in its text instead of its tree, read element by element
// (core/json_stream.hpp's StreamedArrays is the one there is). The reader sees only this.
class ArraySource {
public:
  // Whether `v` stands for an array left in the text.
  virtual bool is_placeholder(const json& v) const = 0;
  // The array's elements in order, as ObjReader::for_each_object describes; `base` is the array's
  // JSON pointer followed by '/'.
  virtual void for_each(const json& placeholder, const std::string& source, const std::string& base,
                        const std::function<void(std::size_t)>& count,
                        const std::function<void(ObjReader&, std::size_t)>& each) const = 0;
  // The array as a tree, built on first use and kept (for readers that want the whole array).
  virtual const json& tree(const json& placeholder) const = 0;

protected:
  ~ArraySource() = default;
};

// Escapes one reference token of a JSON pointer (RFC 6901).
std::string pointer_token(const std::string& key);

class ObjReader {
public:
  // `source` names the file ("stdin", "net.json"); `pointer` is the JSON pointer of `j`.
  // `streamed`: the arrays `j` holds as placeholders (parse_json_streamed), read through
  // for_each_object without ever being a tree (other accessors build their tree on demand).
  ObjReader(const json& j, std::string source, std::string pointer,
            const ArraySource* streamed = nullptr);

  const std::string& source() const { return source_; }
  const std::string& pointer() const { return pointer_; }
  std::string where(const std::string& key) const;
  std::string where() const;
  [[noreturn]] void fail(const std::string& key, const std::string& what) const;

  bool has(const std::string& key) const;
  const json& raw(const std::string& key); // required, any type
  const json* raw_opt(const std::string& key);

  std::int64_t integer(const std::string& key, std::int64_t lo = INT64_MIN,
                       std::int64_t hi = INT64_MAX);
  std::optional<std::int64_t> integer_opt(const std::string& key, std::int64_t lo = INT64_MIN,
                                          std::int64_t hi = INT64_MAX);
  // A whole number in [0, 2^64 - 1] (seeds: the command line takes any unsigned 64-bit value).
  std::optional<std::uint64_t> uint64_opt(const std::string& key);
  double number(const std::string& key);
  double positive(const std::string& key); // > 0 and finite
  std::optional<double> number_opt(const std::string& key);
  std::string string(const std::string& key);
  std::optional<std::string> string_opt(const std::string& key);
  bool boolean(const std::string& key);
  std::optional<bool> boolean_opt(const std::string& key);
  std::vector<std::int64_t> int_list(const std::string& key, std::int64_t lo = INT64_MIN,
                                     std::int64_t hi = INT64_MAX);
  std::vector<std::string> string_list(const std::string& key);
  ObjReader object(const std::string& key);
  std::optional<ObjReader> object_opt(const std::string& key);
  // An array of objects; each element is handed its own reader (call done() on it).
  std::vector<ObjReader> objects(const std::string& key);
  // The same array, one element at a time: `count(n)` once every element is known to be an
  // object (same errors, in the same order, as objects()), then `each(reader, index)` in order.
  // An array streamed from the text never exists as a whole tree.
  void for_each_object(const std::string& key, const std::function<void(std::size_t)>& count,
                       const std::function<void(ObjReader&, std::size_t)>& each);
  const json* ext(); // the "ext" object, if any (only the document's top level asks)

  void done() const; // rejects any key that was not read ("ext" included)

private:
  const json& j_;
  std::string source_;
  std::string pointer_;
  // Keys read, remembered by the address of their value: no string copies on the hot path,
  // and objects have few keys, so a vector beats a set.
  void mark(const json* value);
  const json& value(const json& v) const; // v, or the tree of the streamed array v stands for
  std::vector<const json*> used_;
  const ArraySource* streamed_ = nullptr;
};

std::int64_t as_integer(const json& v, const std::string& where, std::int64_t lo = INT64_MIN,
                        std::int64_t hi = INT64_MAX);
double as_number(const json& v, const std::string& where);

} // namespace icnkit
