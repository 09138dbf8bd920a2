// Commit records (isa/include/warpforge/isa/commit.h): the emulator writes them in the layout
// isa/device.toml declares; the reading, framing and printing are isa's, shared with every reader.
#pragma once

#include "warpforge/isa/commit.h"

namespace wf::func {

using isa::appendCommitLine;
using isa::CommitPartView;
using isa::CommitSink;
using isa::CommitStream;
using isa::CommitView;
using isa::formatCommit;
using isa::Injection;

} // namespace wf::func
