#include "core/io.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
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

namespace {

// Reads the whole of fd. A regular file (-i FILE, or stdin redirected from one) is read into a
// string of its size, so the text is held once, not twice while a buffer grows.
std::string read_all(int fd, const std::string& where) {
  std::string data;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    data.reserve(static_cast<std::size_t>(st.st_size) + 1);
  for (;;) {
    if (data.size() == data.capacity())
      data.reserve(std::max<std::size_t>(2 * data.capacity(), std::size_t{1} << 16));
    // Straight into the string's spare room.
    const std::size_t old = data.size(), room = data.capacity() - old;
    data.resize(data.capacity());
    const ssize_t n = ::read(fd, data.data() + old, room);
    data.resize(old + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_runtime(where, std::string("read failed: ") + std::strerror(errno));
    }
  }
  return data;
}

} // namespace

std::string read_input(const std::string& path) {
  if (path == "-") {
    if (isatty(STDIN_FILENO)) fail_usage("stdin", "no input: pipe a document in or pass -i FILE");
    return read_all(STDIN_FILENO, "stdin");
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail_runtime(path, std::string("cannot open: ") + std::strerror(errno));
  try {
    std::string data = read_all(fd, path);
    ::close(fd);
    return data;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

namespace {

std::string errno_text(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

void write_all(int fd, const std::string& content, const std::string& where) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_runtime(where, errno_text("write failed"));
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

// --- the temporary, and the signals that remove it ---------------------------------------------
// The handler may only touch these: a fixed buffer and a flag.
char g_temp[PATH_MAX + 32];
volatile std::sig_atomic_t g_temp_live = 0;
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_temp_and_die(int sig) {
  if (g_temp_live) ::unlink(g_temp);
  // SA_RESETHAND restored the default action; SA_NODEFER lets it act now.
  ::raise(sig);
}

void install_handlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (int sig : kSignals) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = remove_temp_and_die;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    ::sigaction(sig, &sa, nullptr);
  }
}

// Where a write to `path` goes.
struct Target {
  std::string path;     // the file to replace or create (symbolic links followed)
  bool through = false; // exists and is not a regular file: write into it
  bool exists = false;
  struct stat st {};
};

// Follows the symbolic links from `path` to the name they end at (which need not exist).
std::string follow_links(std::string path) {
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    std::string to(PATH_MAX, '\0');
    ssize_t n = ::readlink(path.c_str(), to.data(), to.size());
    if (n < 0) fail_runtime(path, errno_text("cannot read the symbolic link"));
    to.resize(static_cast<std::size_t>(n));
    std::size_t slash = path.rfind('/');
    path = to.front() == '/' || slash == std::string::npos ? to : path.substr(0, slash + 1) + to;
  }
  fail_runtime(path, "too many levels of symbolic links");
}

Target target_of(const std::string& path) {
  Target t;
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) { // follows links
    t.exists = true;
    t.st = st;
    if (S_ISDIR(st.st_mode)) fail_runtime(path, "is a directory");
    if (!S_ISREG(st.st_mode)) {
      t.through = true;
      t.path = path;
      return t;
    }
  } else if (errno != ENOENT) {
    fail_runtime(path, errno_text("cannot write"));
  }
  t.path = follow_links(path);
  return t;
}

struct Pending {
  std::string path; // as the user gave it
  Target target;
  std::string temp;
  int fd = -1;
};
Pending g_pending;

void clear_temp() {
  g_temp_live = 0;
  g_temp[0] = '\0';
}

// The umask, read without changing it where the kernel tells it (Linux >= 4.7): setting it to
// read it back would briefly affect files other threads create.
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0)
      return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
  mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

// Creates the temporary beside `t.path`, with the mode (and owner) the file will have.
Pending open_temp(const std::string& path, const Target& t) {
  Pending p;
  p.path = path;
  p.target = t;
  p.temp = t.path + ".tmp.XXXXXX";
  if (p.temp.size() >= sizeof g_temp) fail_runtime(path, "path too long");
  install_handlers();
  std::memcpy(g_temp, p.temp.c_str(), p.temp.size() + 1);
  g_temp_live = 1;
  p.fd = ::mkstemp(g_temp);
  if (p.fd < 0) {
    clear_temp();
    fail_runtime(path, errno_text("cannot create temporary file"));
  }
  p.temp = g_temp;
  mode_t mode;
  if (t.exists) {
    mode = t.st.st_mode & 07777;
    if (::geteuid() == 0 && (t.st.st_uid != 0 || t.st.st_gid != 0))
      (void)!::fchown(p.fd, t.st.st_uid, t.st.st_gid);
  } else {
    mode = 0666 & ~current_umask();
  }
  if (::fchmod(p.fd, mode) != 0) {
    int e = errno;
    ::close(p.fd);
    ::unlink(g_temp);
    clear_temp();
    errno = e;
    fail_runtime(path, errno_text("cannot set the mode of the temporary file"));
  }
  return p;
}

void drop(Pending& p) {
  if (p.fd >= 0) ::close(p.fd);
  if (!p.temp.empty()) ::unlink(p.temp.c_str());
  clear_temp();
  p = Pending{};
}

// Writes, syncs and renames the temporary into place.
void commit(Pending& p, const std::string& content) {
  try {
    write_all(p.fd, content, p.path);
    if (::fsync(p.fd) != 0 && errno != EINVAL) fail_runtime(p.path, errno_text("fsync failed"));
    int fd = p.fd;
    p.fd = -1;
    if (::close(fd) != 0) fail_runtime(p.path, errno_text("close failed"));
    if (std::rename(p.temp.c_str(), p.target.path.c_str()) != 0)
      fail_runtime(p.path, errno_text("cannot rename into place"));
    clear_temp();
    p = Pending{};
  } catch (...) {
    drop(p);
    throw;
  }
}

void write_through(const std::string& path, const std::string& content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) fail_runtime(path, errno_text("cannot open"));
  try {
    write_all(fd, content, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) fail_runtime(path, errno_text("close failed"));
}

} // namespace

void prepare_output(const std::string& path) {
  discard_output();
  if (path == "-") return;
  Target t = target_of(path);
  if (t.through) return;
  g_pending = open_temp(path, t);
}

void discard_output() {
  if (g_pending.fd >= 0 || !g_pending.temp.empty()) drop(g_pending);
}

void write_output(const std::string& path, const std::string& content) {
  if (path == "-") {
    write_all(STDOUT_FILENO, content, "stdout");
    return;
  }
  if (!g_pending.temp.empty() && g_pending.path == path) {
    commit(g_pending, content);
    return;
  }
  Target t = target_of(path);
  if (t.through) {
    write_through(t.path, content);
    return;
  }
  Pending p = open_temp(path, t);
  commit(p, content);
}

} // namespace icnkit
