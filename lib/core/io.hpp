// Whole-file input and atomic output. A failed run never leaves half a document behind.
#pragma once
#include <string>

namespace icnkit {

// Reads `path` ("-" = stdin) whole. Refuses to wait on an interactive terminal.
std::string read_input(const std::string& path);
// Writes `content` to `path` ("-" = stdout): a file is written to a temporary beside it and
// renamed into place, so readers see the old file or the new one, never a partial one.
void write_output(const std::string& path, const std::string& content);
// Name of an input for error messages: "stdin" or the path.
std::string source_name(const std::string& path);

} // namespace icnkit
