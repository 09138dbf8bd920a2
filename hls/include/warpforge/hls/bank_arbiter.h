//===- warpforge/hls/bank_arbiter.h - Shared-memory bank-conflict arbiter -===//
//
// Part of Warpforge. Splits one warp's shared-memory access into conflict-free passes over the
// configuration's banks (isa/config.toml `shared_banks`, each 4 bytes wide). Word w of shared
// memory lives in bank w % Banks at row w / Banks. Lanes that access the same word (any of its
// bytes) are served in the same pass: a read is broadcast to them. Lanes whose words are
// different rows of one bank are served in different passes.
//
// One pass is what the RTL (rtl/units/wf_bank_arbiter.sv) computes in one cycle:
//   - every bank takes the row of the lowest-numbered pending lane that touches it;
//   - a pending lane is served when every bank it touches took its row.
// The lowest pending lane is always served, so a request of n active lanes takes at most n
// passes; for accesses of up to 4 bytes the count is the largest number of distinct words asked
// of one bank (the "n-way bank conflict"), which no schedule can beat.
//
// Addresses are byte offsets in the shared window, naturally aligned to the access size (the
// load/store unit faults on misaligned ones before they get here); 8- and 16-byte accesses
// touch 2 or 4 consecutive banks of one row.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_BANK_ARBITER_H
#define WARPFORGE_HLS_BANK_ARBITER_H

#include <array>
#include <cstdint>

namespace wf::hls {

inline constexpr unsigned kWarpLanes = 32;
inline constexpr unsigned kMaxSharedBanks = 32;

/// One warp's shared-memory access.
struct BankRequest {
  std::array<uint32_t, kWarpLanes> addr{}; ///< byte offsets
  uint32_t mask = 0;                       ///< active lanes
  unsigned sizeLog2 = 2;                   ///< access size: 1 << sizeLog2 bytes (0..4)
};

/// One conflict-free pass.
struct BankPass {
  uint32_t lanes = 0;                              ///< lanes served
  uint32_t bankEnable = 0;                         ///< banks accessed
  std::array<uint32_t, kMaxSharedBanks> bankRow{}; ///< row of each accessed bank (0 otherwise)
};

/// Banks is a power of two from 8 to 32.
constexpr bool validBankCount(unsigned banks) {
  return banks >= 8 && banks <= kMaxSharedBanks && (banks & (banks - 1)) == 0;
}

/// The pass taken while `pending` lanes of `req` are still to be served.
constexpr BankPass bankPass(const BankRequest &req, uint32_t pending, unsigned banks) {
  const unsigned bankBits = banks == 8 ? 3 : banks == 16 ? 4 : 5;
  // Words per lane (1, 2 or 4): the banks of an aligned access share their upper index bits.
  const unsigned groupBits = req.sizeLog2 <= 2 ? 0 : req.sizeLog2 - 2;
  std::array<uint32_t, kWarpLanes> bank{}, row{};
  for (unsigned l = 0; l < kWarpLanes; ++l) {
    const uint32_t word = req.addr[l] >> 2;
    bank[l] = word & (banks - 1);
    row[l] = word >> bankBits;
  }
  auto touches = [&](unsigned l, unsigned b) {
    return ((pending >> l) & 1) && (bank[l] >> groupBits) == (b >> groupBits);
  };
  std::array<uint32_t, kMaxSharedBanks> chosen{};
  for (unsigned b = 0; b < banks; ++b) {
    for (unsigned l = 0; l < kWarpLanes; ++l) {
      if (touches(l, b)) {
        chosen[b] = row[l];
        break;
      }
    }
  }
  BankPass pass;
  for (unsigned l = 0; l < kWarpLanes; ++l) {
    if (!((pending >> l) & 1))
      continue;
    bool ok = true;
    for (unsigned b = 0; b < banks; ++b)
      ok = ok && (!touches(l, b) || chosen[b] == row[l]);
    if (ok)
      pass.lanes |= uint32_t(1) << l;
  }
  // Only banks that a served lane uses are accessed (a wide access may lose in another bank).
  for (unsigned b = 0; b < banks; ++b) {
    for (unsigned l = 0; l < kWarpLanes; ++l) {
      if (((pass.lanes >> l) & 1) && touches(l, b)) {
        pass.bankEnable |= uint32_t(1) << b;
        pass.bankRow[b] = chosen[b];
      }
    }
  }
  return pass;
}

/// Every pass of a request, in order.
struct BankSchedule {
  unsigned count = 0;
  std::array<BankPass, kWarpLanes> passes{};
};

constexpr BankSchedule bankSchedule(const BankRequest &req, unsigned banks) {
  BankSchedule s;
  for (uint32_t pending = req.mask; pending != 0 && s.count < kWarpLanes;) {
    s.passes[s.count] = bankPass(req, pending, banks);
    pending &= ~s.passes[s.count].lanes;
    ++s.count;
  }
  return s;
}

} // namespace wf::hls

#endif // WARPFORGE_HLS_BANK_ARBITER_H
