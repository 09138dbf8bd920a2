//===- CoverageMain.cpp - wf_ptx_coverage ---------------------------------===//
//
// Part of Warpforge. Writes docs/ptx-coverage.md from the instruction table.
//
//   wf_ptx_coverage                 print the page to stdout
//   wf_ptx_coverage -o FILE         write it to FILE
//   wf_ptx_coverage --check FILE    exit 1 (naming the first difference) if FILE is stale
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/Coverage.h"

#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char **argv) {
  std::ostringstream Page;
  wf::ptx::writeCoverageMarkdown(Page);
  const std::string Want = Page.str();

  if (argc == 1) {
    std::cout << Want;
    return 0;
  }
  if (argc != 3 || (std::strcmp(argv[1], "-o") != 0 && std::strcmp(argv[1], "--check") != 0)) {
    std::cerr << "usage: wf_ptx_coverage [-o FILE | --check FILE]\n";
    return 2;
  }
  const char *Path = argv[2];
  if (std::strcmp(argv[1], "-o") == 0) {
    std::ofstream Out(Path, std::ios::binary);
    Out << Want;
    if (!Out) {
      std::cerr << "wf_ptx_coverage: cannot write " << Path << "\n";
      return 1;
    }
    return 0;
  }
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    std::cerr << "wf_ptx_coverage: cannot read " << Path << "\n";
    return 1;
  }
  std::ostringstream Have;
  Have << In.rdbuf();
  if (Have.str() == Want)
    return 0;
  // Name the first differing line to make the failure actionable.
  std::istringstream A(Have.str()), B(Want);
  std::string LA, LB;
  unsigned Line = 0;
  while (true) {
    ++Line;
    bool GA = static_cast<bool>(std::getline(A, LA));
    bool GB = static_cast<bool>(std::getline(B, LB));
    if (!GA || !GB || LA != LB) {
      std::cerr << Path << ":" << Line << ": stale; regenerate with wf_ptx_coverage -o " << Path
                << "\n  have: " << (GA ? LA : "<end of file>")
                << "\n  want: " << (GB ? LB : "<end of file>") << "\n";
      return 1;
    }
  }
}
