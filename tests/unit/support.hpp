// Helpers shared by the unit tests.
#pragma once
#include "core/error.hpp"

#include <catch2/catch.hpp>
#include <functional>

namespace icnkit::test {

// The kind of icnkit::Error that `f` throws; fails the test when it throws none.
inline ErrorKind kind_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind();
  }
  FAIL("no error thrown");
  return ErrorKind::Runtime;
}

} // namespace icnkit::test
