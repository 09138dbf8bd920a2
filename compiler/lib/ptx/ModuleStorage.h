//===- ModuleStorage.h - Text owned by a Module -----------------*- C++ -*-===//
//
// Part of Warpforge. Private to wf_ptx.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "warpforge/ptx/Module.h"

#include <deque>
#include <string>
#include <string_view>

namespace wf::ptx {

struct Module::Storage {
  /// The PTX text; names in the Module point into it.
  std::string source;
  /// Names the parser made (renamed shadowing declarations, unquoted strings).
  std::deque<std::string> names;

  std::string_view save(std::string S) {
    names.push_back(std::move(S));
    return names.back();
  }
};

} // namespace wf::ptx
