// Text for messages: control characters made visible, and the closest name to a typo.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace icnkit {

// `s` with every control character (bytes 0x00-0x1f and 0x7f) written as an escape: \n, \r,
// \t, else \xNN. An error message that echoes user text then stays one line and cannot forge
// another line on stderr. Other bytes (UTF-8 included) pass unchanged.
std::string escape_control(std::string_view s);

// Whether `s` is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF):
// what a JSON document may hold.
bool is_utf8(std::string_view s);

// Optimal-string-alignment distance: insertions, deletions, substitutions and transpositions of
// adjacent characters each cost 1. Case-sensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `word` (case-insensitively) when it is near enough to be a likely
// typo of it: distance at most max(1, min(3, |word| / 3)). Ties go to the first; "" if none.
std::string closest_name(std::string_view word, const std::vector<std::string>& candidates);

} // namespace icnkit
