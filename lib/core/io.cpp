#include "core/io.hpp"

#include "core/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace icnkit {

std::string source_name(const std::string& path) {
  return path == "-" ? "stdin" : path;
}

std::string read_input(const std::string& path) {
  if (path == "-") {
    if (isatty(STDIN_FILENO)) fail_usage("stdin", "no input: pipe a document in or pass -i FILE");
    std::string data;
    char buf[1 << 16];
    for (;;) {
      ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
      if (n == 0) break;
      if (n < 0) {
        if (errno == EINTR) continue;
        fail_runtime("stdin", std::string("read failed: ") + std::strerror(errno));
      }
      data.append(buf, static_cast<std::size_t>(n));
    }
    return data;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_runtime(path, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) fail_runtime(path, "read failed");
  return ss.str();
}

namespace {
void write_all(int fd, const std::string& content, const std::string& where) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_runtime(where, std::string("write failed: ") + std::strerror(errno));
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}
} // namespace

void write_output(const std::string& path, const std::string& content) {
  if (path == "-") {
    write_all(STDOUT_FILENO, content, "stdout");
    return;
  }
  std::string tmpl = path + ".tmp.XXXXXX";
  int fd = mkstemp(tmpl.data());
  if (fd < 0)
    fail_runtime(path, std::string("cannot create temporary file: ") + std::strerror(errno));
  try {
    write_all(fd, content, path);
    if (::fsync(fd) != 0 && errno != EINVAL)
      fail_runtime(path, std::string("fsync failed: ") + std::strerror(errno));
    if (::close(fd) != 0) {
      fd = -1;
      fail_runtime(path, std::string("close failed: ") + std::strerror(errno));
    }
    fd = -1;
    ::chmod(tmpl.c_str(), 0644);
    if (std::rename(tmpl.c_str(), path.c_str()) != 0)
      fail_runtime(path, std::string("cannot rename into place: ") + std::strerror(errno));
  } catch (...) {
    if (fd >= 0) ::close(fd);
    std::remove(tmpl.c_str());
    throw;
  }
}

} // namespace icnkit
