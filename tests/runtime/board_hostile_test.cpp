// The board server against careless and hostile programs (issue 16, defects 1 and 2): a program
// that keeps its shared-memory mappings after it disconnects, or resizes them, sees and disturbs
// nothing of the next program; a doorbell past the ring, a ring outside the DMA window and an
// unknown register are refused; a program that dies mid-kernel, runs past the launch time limit or
// idles while another waits is ended; SIGTERM ends the server while a kernel runs; the server's
// watchdog cap holds whatever a program asks. The server runs in a child process; raw clients
// speak the wire protocol (wire.h) directly, and CUDA programs run in their own child processes.
#include "cuda_types.h"
#include "ptx_kernels.h"
#include "warpforge/isa/config.gen.h"
#include "warpforge/isa/device.gen.h"
#include "warpforge/runtime/board_server.h"
#include "warpforge/runtime/device.h"
#include "wire.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <optional>
#include <poll.h>
#include <string>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <tuple>
#include <unistd.h>
#include <vector>

extern "C" {
cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                             cudaStream_t stream);
cudaError_t cudaDeviceSynchronize(void);
}

namespace {

using namespace wf::rt::board;
using Clock = std::chrono::steady_clock;
namespace dev = wf::isa::dev;

/// A board server in a child process of its own.
class ServerProcess {
public:
  explicit ServerProcess(ServerOptions options, const char *tag) {
    path_ = (std::filesystem::temp_directory_path() /
             ("wf-test-hostile-" + std::string(tag) + "-" + std::to_string(::getpid()) + ".sock"))
                .string();
    options.socketPath = path_;
    options.config = "tiny";
    options.quiet = true;
    pid_ = ::fork();
    if (pid_ == 0)
      std::_Exit(serve(options));
    for (int i = 0; i < 500 && !std::filesystem::exists(path_); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ~ServerProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    std::filesystem::remove(path_);
  }
  const std::string &path() const { return path_; }
  bool alive() { return pid_ > 0 && ::waitpid(pid_, nullptr, WNOHANG) == 0; }

  /// Sends SIGTERM; the exit status if the server ended within `limit`, else nothing.
  std::optional<int> terminate(std::chrono::seconds limit) {
    ::kill(pid_, SIGTERM);
    auto deadline = Clock::now() + limit;
    while (Clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return std::nullopt;
  }

private:
  std::string path_;
  pid_t pid_ = -1;
};

/// A program that speaks the wire protocol itself and keeps whatever it is given.
struct RawClient {
  int socket = -1;
  int memoryFd = -1, windowFd = -1;
  uint8_t *memory = nullptr, *window = nullptr;
  uint64_t memoryBytes = 0, windowBytes = 0;

  ~RawClient() {
    disconnect();
    if (memory)
      munmap(memory, memoryBytes);
    if (window)
      munmap(window, windowBytes);
    if (memoryFd >= 0)
      ::close(memoryFd);
    if (windowFd >= 0)
      ::close(windowFd);
  }

  /// Connects; every later reply must come within `timeout`.
  bool connect(const std::string &path, std::chrono::seconds timeout) {
    socket = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
    timeval tv{timeout.count(), 0};
    ::setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return ::connect(socket, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0;
  }
  void disconnect() {
    if (socket >= 0)
      ::close(socket);
    socket = -1;
  }

  /// One request and its reply; nothing when the connection ends or the reply does not come.
  std::optional<WireReply> request(WireOp op, uint32_t offset = 0, uint32_t value = 0) {
    WireRequest req{uint32_t(op), offset, value, 0, 0, 0};
    if (::send(socket, &req, sizeof req, MSG_NOSIGNAL) != ssize_t(sizeof req))
      return std::nullopt;
    return receive();
  }
  std::optional<WireReply> receive() {
    WireReply reply{};
    iovec iov{&reply, sizeof reply};
    alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))];
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n = ::recvmsg(socket, &msg, MSG_WAITALL | MSG_CMSG_CLOEXEC);
    if (n != ssize_t(sizeof reply))
      return std::nullopt;
    for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(2 * sizeof(int)))
        continue;
      int fds[2];
      std::memcpy(fds, CMSG_DATA(c), sizeof fds);
      memoryFd = fds[0];
      windowFd = fds[1];
    }
    return reply;
  }

  /// HELLO, and maps both segments it is given.
  bool hello() {
    std::optional<WireReply> reply = request(WireOp::Hello);
    if (!reply || reply->status != 0 || memoryFd < 0 || windowFd < 0)
      return false;
    memoryBytes = reply->memoryBytes;
    windowBytes = reply->windowBytes;
    void *m = mmap(nullptr, memoryBytes, PROT_READ | PROT_WRITE, MAP_SHARED, memoryFd, 0);
    void *w = mmap(nullptr, windowBytes, PROT_READ | PROT_WRITE, MAP_SHARED, windowFd, 0);
    memory = m == MAP_FAILED ? nullptr : static_cast<uint8_t *>(m);
    window = w == MAP_FAILED ? nullptr : static_cast<uint8_t *>(w);
    return memory && window;
  }
};

/// The bytes a program writes, to look for where it must not be seen.
std::vector<uint8_t> secret(size_t bytes) {
  std::vector<uint8_t> data(bytes);
  for (size_t i = 0; i < bytes; ++i)
    data[i] = uint8_t(0xA5 ^ (i * 131) ^ (i >> 8));
  return data;
}

bool contains(const uint8_t *haystack, uint64_t bytes, const std::vector<uint8_t> &needle) {
  return memmem(haystack, bytes, needle.data(), 64) != nullptr;
}

/// A program served normally: a device opened through the board plugin, a round trip of data.
void expectServed(const std::string &path) {
  ::setenv("WARPFORGE_SERVER", path.c_str(), 1);
  std::string error;
  auto device = wf::rt::openDevice("board", "tiny", error);
  ::unsetenv("WARPFORGE_SERVER");
  ASSERT_TRUE(device) << error;
  std::vector<uint8_t> data = secret(4096), back(4096);
  uint64_t a = device->allocate(4096, 256);
  ASSERT_TRUE(device->write(a, data.data(), data.size()));
  ASSERT_TRUE(device->read(a, back.data(), back.size()));
  EXPECT_EQ(back, data);
}

TEST(BoardHostile, ALingeringClientSeesNothingOfTheNextProgram) {
  ServerProcess server({}, "linger");
  RawClient lingering;
  ASSERT_TRUE(lingering.connect(server.path(), std::chrono::seconds(30)));
  ASSERT_TRUE(lingering.hello());
  std::memset(lingering.memory, 0xEE, 1 << 20); // its own marks, before it goes
  lingering.disconnect();                       // ... keeping its mappings and descriptors

  ::setenv("WARPFORGE_SERVER", server.path().c_str(), 1);
  std::string error;
  auto device = wf::rt::openDevice("board", "tiny", error);
  ::unsetenv("WARPFORGE_SERVER");
  ASSERT_TRUE(device) << error;
  const size_t n = 1 << 20;
  uint64_t a = device->allocate(n, 4096);
  std::vector<uint8_t> first(64, 1);
  ASSERT_TRUE(device->read(device->info().memBase, first.data(), first.size()));
  EXPECT_EQ(first, std::vector<uint8_t>(64, 0)) << "the program found the last one's memory";
  std::vector<uint8_t> data = secret(n);
  ASSERT_TRUE(device->write(a, data.data(), n)); // staged through the DMA window
  // The lingering client finds the program's data in neither segment it kept.
  EXPECT_FALSE(contains(lingering.memory, lingering.memoryBytes, data));
  EXPECT_FALSE(contains(lingering.window, lingering.windowBytes, data));
  // ... and what it writes there reaches nothing of the program.
  std::memset(lingering.memory, 0x11, 32 << 20); // where the program's allocations are
  std::memset(lingering.window, 0x22, lingering.windowBytes);
  std::vector<uint8_t> back(n);
  ASSERT_TRUE(device->read(a, back.data(), n));
  EXPECT_TRUE(back == data) << "a lingering client wrote into the program's memory";
  device.reset();
  EXPECT_TRUE(server.alive());
  EXPECT_EQ(server.terminate(std::chrono::seconds(10)), std::optional<int>(0));
}

TEST(BoardHostile, AClientCannotResizeTheSharedMemory) {
  ServerProcess server({}, "resize");
  {
    RawClient hostile;
    ASSERT_TRUE(hostile.connect(server.path(), std::chrono::seconds(30)));
    ASSERT_TRUE(hostile.hello());
    munmap(hostile.memory, hostile.memoryBytes);
    hostile.memory = nullptr;
    EXPECT_NE(::ftruncate(hostile.memoryFd, 0), 0) << "device memory shrank under the model";
    EXPECT_NE(::ftruncate(hostile.windowFd, 4096), 0) << "the DMA window shrank under the model";
    auto reply = hostile.request(WireOp::Read, uint32_t(dev::Reg::Status));
    ASSERT_TRUE(reply);
  }
  expectServed(server.path());
  EXPECT_TRUE(server.alive());
}

TEST(BoardHostile, DoorbellsRingsAndRegistersAreChecked) {
  ServerProcess server({}, "doorbell");
  struct Case {
    const char *what;
    uint32_t base, size, tail;
  };
  const uint32_t window = 16u << 20;
  // Every hardware queue of the served emulator is checked as queue 0 is.
  for (uint32_t queue = 0; queue < dev::kQueues; ++queue)
    for (Case c : {Case{"a doorbell 2^32-1 commands ahead", 0, 4, 0xffffffffu},
                   Case{"a doorbell one past the ring", 0, 4, 5},
                   Case{"a ring that ends outside the DMA window", window - 64, 4, 1},
                   Case{"a ring that starts outside the DMA window", window + 4096, 4, 1},
                   Case{"a doorbell with no ring", 0, 0, 3}}) {
      SCOPED_TRACE(std::string(c.what) + " on queue " + std::to_string(queue));
      RawClient hostile;
      ASSERT_TRUE(hostile.connect(server.path(), std::chrono::seconds(20)));
      ASSERT_TRUE(hostile.hello());
      std::optional<WireReply> count = hostile.request(WireOp::Read, uint32_t(dev::Reg::QueueCount));
      ASSERT_TRUE(count);
      ASSERT_EQ(count->value, dev::kQueues) << "the emulator serves all its queues";
      auto reg = [&](dev::QueueReg r) { return dev::queueReg(queue, r); };
      std::optional<WireReply> set = hostile.request(WireOp::Write, reg(dev::QueueReg::BaseLo), c.base);
      ASSERT_TRUE(set);
      ASSERT_EQ(set->status, 0u);
      set = hostile.request(WireOp::Write, reg(dev::QueueReg::Size), c.size);
      ASSERT_TRUE(set);
      ASSERT_EQ(set->status, 0u);
      auto start = Clock::now();
      std::optional<WireReply> reply = hostile.request(WireOp::Write, reg(dev::QueueReg::Tail), c.tail);
      ASSERT_TRUE(reply) << "no answer to the doorbell within 20 s";
      EXPECT_EQ(reply->status, uint32_t(WireStatus::BadDoorbell));
      EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
      EXPECT_FALSE(hostile.request(WireOp::Read, uint32_t(dev::Reg::Magic)))
          << "the session goes on after a refused doorbell";
    }
  {
    // The registers of a queue the device lacks are not in the map.
    RawClient hostile;
    ASSERT_TRUE(hostile.connect(server.path(), std::chrono::seconds(20)));
    ASSERT_TRUE(hostile.hello());
    std::optional<WireReply> reply =
        hostile.request(WireOp::Write, dev::queueReg(dev::kQueues, dev::QueueReg::Tail), 1);
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->status, uint32_t(WireStatus::BadRequest));
  }
  {
    RawClient hostile;
    ASSERT_TRUE(hostile.connect(server.path(), std::chrono::seconds(20)));
    ASSERT_TRUE(hostile.hello());
    std::optional<WireReply> reply = hostile.request(WireOp::Write, 0xffc, 1);
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->status, uint32_t(WireStatus::BadRequest));
  }
  // Host-initiated DMA outside device memory, or longer than one request may be: refused before
  // any payload is taken, and the session ends.
  for (auto [op, address, bytes] :
       {std::tuple{WireOp::DmaWrite, uint64_t(wf::isa::kGlobalBase) - 64, uint64_t(128)},
        std::tuple{WireOp::DmaRead, ~uint64_t(0) - 8, uint64_t(16)},
        std::tuple{WireOp::DmaRead, uint64_t(wf::isa::kGlobalBase), kWireDmaMaxBytes + 1}}) {
    RawClient hostile;
    ASSERT_TRUE(hostile.connect(server.path(), std::chrono::seconds(20)));
    ASSERT_TRUE(hostile.hello());
    WireRequest req{uint32_t(op), 0, 0, 0, address, bytes};
    ASSERT_EQ(::send(hostile.socket, &req, sizeof req, MSG_NOSIGNAL), ssize_t(sizeof req));
    std::optional<WireReply> reply = hostile.receive();
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->status, uint32_t(WireStatus::BadRequest));
    EXPECT_FALSE(hostile.request(WireOp::Read, uint32_t(dev::Reg::Magic)))
        << "the session goes on after a refused DMA";
  }
  {
    // One past the end of device memory, from a client that knows its size.
    RawClient hostile;
    ASSERT_TRUE(hostile.connect(server.path(), std::chrono::seconds(20)));
    ASSERT_TRUE(hostile.hello());
    WireRequest req{uint32_t(WireOp::DmaWrite), 0, 0, 0,
                    wf::isa::kGlobalBase + hostile.memoryBytes - 8, 16};
    ASSERT_EQ(::send(hostile.socket, &req, sizeof req, MSG_NOSIGNAL), ssize_t(sizeof req));
    std::optional<WireReply> reply = hostile.receive();
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->status, uint32_t(WireStatus::BadRequest));
  }
  {
    RawClient hostile;
    ASSERT_TRUE(hostile.connect(server.path(), std::chrono::seconds(20)));
    std::optional<WireReply> reply = hostile.request(WireOp(77));
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->status, uint32_t(WireStatus::BadRequest));
  }
  expectServed(server.path());
  EXPECT_TRUE(server.alive());
}

// Every thread waits until *flag is nonzero; nothing sets it, so the kernel runs until stopped.
constexpr const char *kSpinPtx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry spin(.param .u64 p_flag)
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p_flag];
WAIT:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra WAIT;
  ret;
}
)";
const char kSpin = 0;

/// A CUDA program in a child process that launches the endless kernel on the server, asking for no
/// watchdog. It writes one byte to the pipe just before the launch, then the cudaError_t that
/// cudaDeviceSynchronize returns.
struct SpinningProgram {
  pid_t pid = -1;
  int pipe[2] = {-1, -1};

  explicit SpinningProgram(const std::string &path) {
    if (::pipe(pipe) != 0)
      return;
    pid = ::fork();
    if (pid != 0) {
      ::close(pipe[1]);
      return;
    }
    ::close(pipe[0]);
    ::setenv("WARPFORGE_SERVER", path.c_str(), 1);
    ::setenv("WARPFORGE_WATCHDOG_MINSTS", "0", 1);
    wf::test::registerPtxKernels(kSpinPtx, {{&kSpin, "spin"}});
    void *flag = nullptr;
    uint32_t zero = 0;
    if (cudaMalloc(&flag, 4) != cudaSuccess ||
        cudaMemcpy(flag, &zero, 4, cudaMemcpyHostToDevice) != cudaSuccess)
      std::_Exit(3);
    char ready = 'r';
    if (::write(pipe[1], &ready, 1) != 1)
      std::_Exit(3);
    void *args[] = {&flag};
    cudaError_t error = cudaLaunchKernel(&kSpin, dim3{1, 1, 1}, dim3{32, 1, 1}, args, 0, nullptr);
    if (error == cudaSuccess)
      error = cudaDeviceSynchronize();
    int code = int(error);
    std::_Exit(::write(pipe[1], &code, sizeof code) == sizeof code ? 0 : 3);
  }
  ~SpinningProgram() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
    if (pipe[0] >= 0)
      ::close(pipe[0]);
  }
  /// Waits for the byte before the launch, then gives the launch time to reach the device.
  bool launched() {
    char ready = 0;
    if (::read(pipe[0], &ready, 1) != 1)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    return true;
  }
  /// The error cudaDeviceSynchronize returned, if it returned within `limit`.
  std::optional<int> result(std::chrono::seconds limit) {
    pollfd pfd{pipe[0], POLLIN, 0};
    if (::poll(&pfd, 1, int(limit.count() * 1000)) <= 0)
      return std::nullopt;
    int code = 0;
    if (::read(pipe[0], &code, sizeof code) != sizeof code)
      return std::nullopt;
    return code;
  }
};

TEST(BoardHostile, AProgramThatDiesMidKernelFreesTheDeviceAtOnce) {
  ServerOptions options;
  options.watchdogMinsts = 0; // only the program's death may end the kernel
  options.launchLimitSeconds = 0;
  ServerProcess server(options, "death");
  {
    SpinningProgram program(server.path());
    ASSERT_TRUE(program.launched());
    ::kill(program.pid, SIGKILL);
  }
  RawClient next;
  ASSERT_TRUE(next.connect(server.path(), std::chrono::seconds(10)));
  EXPECT_TRUE(next.hello()) << "the next program waited on a dead program's kernel";
  next.disconnect();
  expectServed(server.path());
}

TEST(BoardHostile, ALaunchPastTheTimeLimitEndsTheProgram) {
  ServerOptions options;
  options.watchdogMinsts = 0;
  options.launchLimitSeconds = 2;
  ServerProcess server(options, "limit");
  SpinningProgram program(server.path());
  ASSERT_TRUE(program.launched());
  std::optional<int> error = program.result(std::chrono::seconds(30));
  ASSERT_TRUE(error) << "the launch ran on past the server's time limit";
  EXPECT_EQ(*error, int(cudaErrorLaunchFailure));
  expectServed(server.path());
}

TEST(BoardHostile, TheServerCapsTheWatchdog) {
  ServerOptions options;
  options.watchdogMinsts = 1; // the program asks for none
  options.launchLimitSeconds = 0;
  ServerProcess server(options, "watchdog");
  SpinningProgram program(server.path());
  ASSERT_TRUE(program.launched());
  std::optional<int> error = program.result(std::chrono::seconds(60));
  ASSERT_TRUE(error) << "the kernel ran on past the server's watchdog";
  EXPECT_EQ(*error, int(cudaErrorLaunchTimeout));
}

TEST(BoardHostile, AnIdleProgramYieldsToAWaitingOne) {
  ServerOptions options;
  options.idleLimitSeconds = 1;
  ServerProcess server(options, "idle");
  RawClient idle;
  ASSERT_TRUE(idle.connect(server.path(), std::chrono::seconds(20)));
  ASSERT_TRUE(idle.hello());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500)); // idle, but nobody waits yet
  ASSERT_TRUE(idle.request(WireOp::Read, uint32_t(dev::Reg::Magic))) << "ended with nobody waiting";
  RawClient waiting;
  ASSERT_TRUE(waiting.connect(server.path(), std::chrono::seconds(10)));
  EXPECT_TRUE(waiting.hello()) << "the waiting program was not served";
  std::optional<WireReply> ended = idle.receive();
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->status, uint32_t(WireStatus::IdleLimit));
}

TEST(BoardHostile, SigtermEndsTheServerDuringAKernel) {
  ServerOptions options;
  options.watchdogMinsts = 0;
  options.launchLimitSeconds = 0;
  ServerProcess server(options, "sigterm");
  SpinningProgram program(server.path());
  ASSERT_TRUE(program.launched());
  EXPECT_EQ(server.terminate(std::chrono::seconds(10)), std::optional<int>(0));
  EXPECT_FALSE(std::filesystem::exists(server.path()));
  std::optional<int> error = program.result(std::chrono::seconds(30));
  ASSERT_TRUE(error);
  EXPECT_EQ(*error, int(cudaErrorLaunchFailure)) << "the program learns it lost the device";
}

} // namespace
