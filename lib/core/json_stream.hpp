// Reading a JSON text without building a tree of its largest arrays. parse() makes the tree of
// everything else, as parse_json does (same checks, same errors at the same line and column),
// but each array found at one of the given JSON pointers stays in the text: the tree holds a
// placeholder for it (a binary value, which no JSON text yields). An ObjReader given this object
// reads such an array with for_each_object, one element at a time: each element is parsed from
// the text into a small tree, handed to the caller and dropped. A document of the size of the
// network's nodes and links thus never costs the ~12x of its text that a whole tree does.
// Speed: a well-formed array is checked by a strict scan of its own and hidden from nlohmann's
// parser (which would lex it char by char), then read by a small reader of that checked text;
// anything the scan is unsure of (escapes, bytes past ASCII, numbers at a double's limits, any
// error) goes through nlohmann's parser, and any error is reported by a second parse that hides
// nothing, so the messages and their line and column are parse_json's.
#pragma once
#include "core/json_reader.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace icnkit {

class StreamedArrays final : public ArraySource {
public:
  // `text` must outlive this object and every tree parse() returns. `pointers` are JSON pointers
  // of object members ("/network/links"); an array anywhere else, or a member at one of them that
  // is not an array, is parsed into the tree as usual.
  StreamedArrays(const std::string& text, const std::vector<std::string>& pointers);
  ~StreamedArrays();
  StreamedArrays(const StreamedArrays&) = delete;
  StreamedArrays& operator=(const StreamedArrays&) = delete;

  // Parses the text (once per object). Every failure is parse_json's Error(Input) at `source`.
  json parse(const std::string& source);

  // ArraySource (core/json_reader.hpp).
  bool is_placeholder(const json& v) const override;
  void for_each(const json& placeholder, const std::string& source, const std::string& base,
                const std::function<void(std::size_t)>& count,
                const std::function<void(ObjReader&, std::size_t)>& each) const override;
  const json& tree(const json& placeholder) const override;

  // How many arrays parse() left in the text.
  std::size_t size() const { return arrays_.size(); }

  struct Array {
    std::size_t begin = 0, end = 0; // the text of the array, '[' to ']'
    std::size_t count = 0;          // elements
    std::size_t first_non_object = static_cast<std::size_t>(-1); // first element not an object
    bool skimmed = false; // checked by a fast scan, read by a fast reader (json_stream.cpp)
    mutable std::unique_ptr<json> tree;
  };

private:
  const Array& array(const json& placeholder) const;

  const std::string& text_;
  std::vector<std::vector<std::string>> paths_; // the pointers' reference tokens, unescaped
  std::vector<Array> arrays_;
};

} // namespace icnkit
