// GoogleTest main for SystemC tests. A SystemC simulation elaborates once per process, so when
// more than one test is selected each runs in a child process of this binary (one
// --gtest_filter each) and the parent reports their results; a single test runs in-process,
// which is what ctest does for every test.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fnmatch.h>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <systemc>
#include <vector>

extern char **environ;

int sc_main(int, char **) { return 0; } // libsystemc wants one; the tests never call it

/// gtest's filter syntax: "POSITIVE[:POSITIVE...][-NEGATIVE[:NEGATIVE...]]" with * and ?.
static bool matchesFilter(const std::string &filter, const std::string &name) {
  auto anyMatch = [&name](const std::string &patterns) {
    size_t start = 0;
    while (start <= patterns.size()) {
      size_t end = patterns.find(':', start);
      if (end == std::string::npos)
        end = patterns.size();
      std::string pattern = patterns.substr(start, end - start);
      if (!pattern.empty() && fnmatch(pattern.c_str(), name.c_str(), 0) == 0)
        return true;
      start = end + 1;
    }
    return false;
  };
  size_t dash = filter.find('-');
  std::string positive = filter.substr(0, dash);
  if (positive.empty())
    positive = "*";
  if (!anyMatch(positive))
    return false;
  return dash == std::string::npos || !anyMatch(filter.substr(dash + 1));
}

int main(int argc, char **argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  testing::InitGoogleTest(&argc, argv);
  const std::string filter = testing::GTEST_FLAG(filter);
  std::vector<std::string> selected;
  const testing::UnitTest &unit = *testing::UnitTest::GetInstance();
  for (int s = 0; s < unit.total_test_suite_count(); ++s) {
    const testing::TestSuite &suite = *unit.GetTestSuite(s);
    for (int t = 0; t < suite.total_test_count(); ++t) {
      std::string name = std::string(suite.name()) + "." + suite.GetTestInfo(t)->name();
      if (matchesFilter(filter, name))
        selected.push_back(name);
    }
  }
  if (testing::GTEST_FLAG(list_tests))
    return RUN_ALL_TESTS();
  if (selected.size() <= 1)
    return RUN_ALL_TESTS();

  int failed = 0;
  for (const std::string &test : selected) {
    std::string filter = "--gtest_filter=" + test;
    std::vector<char *> args = {argv[0], filter.data(), nullptr};
    pid_t pid = 0;
    if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, args.data(), environ) != 0) {
      std::fprintf(stderr, "cannot start a process for %s\n", test.c_str());
      return 1;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    failed += !ok;
    std::printf("%s %s\n", ok ? "[  PASSED  ]" : "[  FAILED  ]", test.c_str());
  }
  std::printf("%zu tests, %d failed\n", selected.size(), failed);
  return failed ? 1 : 0;
}
