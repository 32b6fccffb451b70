// Whole-file input and atomic output. A failed run never leaves half a document behind.
#pragma once
#include <string>

namespace icnkit {

// Reads `path` ("-" = stdin) whole. Refuses to wait on an interactive terminal.
std::string read_input(const std::string& path);

// Writes `content` to `path` ("-" = stdout):
// - a regular file (or a new one) is written to a temporary beside it and renamed into place,
//   so readers see the old file or the new one, never a partial one. The file keeps its mode
//   (and, as root, its owner); a new file gets 0666 minus the umask.
// - a symbolic link is followed: its target is replaced (or created), the link stays.
// - anything else that exists (a FIFO, a character device such as /dev/null, a terminal) is
//   written through, never replaced.
// While a temporary exists, SIGINT, SIGTERM and SIGHUP remove it before the process dies of
// the signal (unless the signal was ignored when the program started).
void write_output(const std::string& path, const std::string& content);

// Creates the temporary write_output(path, ...) will use, now: an unwritable place fails before
// the work (Error(Runtime)), and the temporary exists, removed by the signals above, while the
// program reads its input and works. Nothing for "-" and for files written through.
void prepare_output(const std::string& path);
// Removes the temporary prepare_output made if write_output did not use it (the run failed).
void discard_output();

// Name of an input for error messages: "stdin" or the path.
std::string source_name(const std::string& path);

} // namespace icnkit
