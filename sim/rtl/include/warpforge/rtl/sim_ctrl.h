// Reusable Verilator simulation control for Warpforge RTL benches and harnesses.
//
// Modelled on Verilator's examples and lowRISC Ibex's simple_system (VerilatorSimCtrl with
// extensions): a VerilatedContext owned by a unique_ptr, commandArgs before the model is built,
// final() at the end, and one control class that runs the clock and calls extensions around each
// rising edge (stimulus drivers, scoreboards, memory models, ...).
//
// The clock is `clk_i` and the reset `rst_ni` (active low), as in the lowRISC style guide.
//
// One cycle, as step() runs it:
//   1. drive(cycle)   extensions set inputs (the clock is low);
//   2. eval()         combinational logic settles;
//   3. sample(cycle)  extensions read outputs: what they see is the state of this cycle, and a
//                     valid/ready pair seen high here transfers at the coming edge;
//   4. rising edge, then falling edge (each evaluated and, when tracing, dumped).
//
// Options (parsed from argv; anything else is left to Verilator's commandArgs and +plusargs):
//   --trace[=FILE]     write an FST trace (default FILE: <name>.fst); also env WF_TRACE=FILE
//   --timeout=CYCLES   fail when the run has not finished after CYCLES cycles
//   --seed=N           random seed for stimulus (default 1); also env WF_SEED
//   --vectors=N        random operand sets per operation (benches decide what that means)
//   --verbose          extensions may print more
#pragma once

#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace wf::rtl {

struct SimOptions {
  std::string name = "sim";
  std::string trace_path; // empty: no trace
  std::uint64_t timeout_cycles = 2'000'000'000ull;
  std::uint64_t seed = 1;
  std::uint64_t vectors = 20000;
  bool verbose = false;

  static SimOptions parse(int argc, char **argv, std::string_view name) {
    SimOptions o;
    o.name = std::string(name);
    if (const char *env = std::getenv("WF_TRACE"); env != nullptr && *env != '\0') {
      o.trace_path = env;
    }
    if (const char *env = std::getenv("WF_SEED"); env != nullptr && *env != '\0') {
      o.seed = std::strtoull(env, nullptr, 0);
    }
    for (int i = 1; i < argc; ++i) {
      const std::string_view arg(argv[i]);
      auto value_of = [&](std::string_view key) -> const char * {
        if (arg.size() > key.size() + 1 && arg.substr(0, key.size()) == key &&
            arg[key.size()] == '=') {
          return argv[i] + key.size() + 1;
        }
        return nullptr;
      };
      if (arg == "--trace") {
        o.trace_path = o.name + ".fst";
      } else if (const char *v = value_of("--trace")) {
        o.trace_path = v;
      } else if (const char *v = value_of("--timeout")) {
        o.timeout_cycles = std::strtoull(v, nullptr, 0);
      } else if (const char *v = value_of("--seed")) {
        o.seed = std::strtoull(v, nullptr, 0);
      } else if (const char *v = value_of("--vectors")) {
        o.vectors = std::strtoull(v, nullptr, 0);
      } else if (arg == "--verbose") {
        o.verbose = true;
      }
    }
    return o;
  }
};

// A clock-edge extension: stimulus, checker, memory model, ... Hooks default to doing nothing.
class SimExtension {
public:
  virtual ~SimExtension() = default;
  // Reset is being applied (inputs should go to their idle values).
  virtual void on_reset() {}
  // Before the rising edge of `cycle`, clock low: set inputs.
  virtual void drive(std::uint64_t cycle) { (void)cycle; }
  // After the inputs of `cycle` settled, before its rising edge: read outputs.
  virtual void sample(std::uint64_t cycle) { (void)cycle; }
  // The run may end once every extension is finished.
  virtual bool finished() const { return true; }
  // False when the extension saw a failure (the run's status).
  virtual bool passed() const { return true; }
  // Printed at the end of the run.
  virtual void report() const {}
};

template <class Top> class SimCtrl {
public:
  SimCtrl(int argc, char **argv, std::string_view name)
      : opts_(SimOptions::parse(argc, argv, name)), ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->commandArgs(argc, argv);
    if (!opts_.trace_path.empty()) {
#if VM_TRACE_FST
      ctx_->traceEverOn(true);
#else
      std::fprintf(stderr, "%s: built without FST tracing (WF_RTL_TRACE=OFF); --trace ignored\n",
                   opts_.name.c_str());
#endif
    }
    top_ = std::make_unique<Top>(ctx_.get(), "TOP");
#if VM_TRACE_FST
    if (!opts_.trace_path.empty()) {
      trace_ = std::make_unique<VerilatedFstC>();
      top_->trace(trace_.get(), 99);
      trace_->open(opts_.trace_path.c_str());
    }
#endif
    top_->clk_i = 0;
    top_->rst_ni = 1;
    top_->eval();
  }

  SimCtrl(const SimCtrl &) = delete;
  SimCtrl &operator=(const SimCtrl &) = delete;
  ~SimCtrl() { finish(); }

  Top &top() { return *top_; }
  VerilatedContext &context() { return *ctx_; }
  const SimOptions &options() const { return opts_; }
  std::uint64_t cycle() const { return cycle_; }

  void add_extension(SimExtension &ext) { exts_.push_back(&ext); }

  // Holds rst_ni low for `cycles` clock cycles, then releases it (asynchronous assert).
  void reset(unsigned cycles = 4) {
    for (auto *e : exts_)
      e->on_reset();
    top_->rst_ni = 0;
    top_->eval();
    for (unsigned i = 0; i < cycles; ++i)
      edge();
    top_->rst_ni = 1;
    top_->eval();
  }

  // One clock cycle with the extensions' hooks.
  void step() {
    for (auto *e : exts_)
      e->drive(cycle_);
    top_->eval();
    for (auto *e : exts_)
      e->sample(cycle_);
    edge();
    ++cycle_;
  }

  // Runs until every extension is finished, a failure was seen, $finish, or the timeout.
  // Returns true when every extension passed and the run ended in time.
  bool run() {
    bool in_time = true;
    for (;;) {
      bool all_finished = true;
      bool all_passed = true;
      for (auto *e : exts_) {
        all_finished = all_finished && e->finished();
        all_passed = all_passed && e->passed();
      }
      if (all_finished || !all_passed || ctx_->gotFinish())
        break;
      if (cycle_ >= opts_.timeout_cycles) {
        std::fprintf(stderr, "%s: timeout after %llu cycles\n", opts_.name.c_str(),
                     static_cast<unsigned long long>(cycle_));
        in_time = false;
        break;
      }
      step();
    }
    bool ok = in_time;
    for (auto *e : exts_) {
      e->report();
      ok = ok && e->passed();
    }
    std::printf("%s: %s after %llu cycles (seed %llu)\n", opts_.name.c_str(), ok ? "PASS" : "FAIL",
                static_cast<unsigned long long>(cycle_),
                static_cast<unsigned long long>(opts_.seed));
    return ok;
  }

  // Calls final() and closes the trace; safe to call more than once.
  void finish() {
    if (finished_)
      return;
    finished_ = true;
    top_->final();
#if VM_TRACE_FST
    if (trace_)
      trace_->close();
#endif
  }

private:
  void edge() {
    top_->clk_i = 1;
    top_->eval();
    ctx_->timeInc(1);
    dump();
    top_->clk_i = 0;
    top_->eval();
    ctx_->timeInc(1);
    dump();
  }

  void dump() {
#if VM_TRACE_FST
    if (trace_)
      trace_->dump(ctx_->time());
#endif
  }

  SimOptions opts_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Top> top_;
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> trace_;
#endif
  std::vector<SimExtension *> exts_;
  std::uint64_t cycle_ = 0;
  bool finished_ = false;
};

} // namespace wf::rtl
