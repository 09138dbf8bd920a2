#include "warpforge/runtime/fatbin.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>
#include <zstd.h>

namespace wf::rt::fatbin {

const Entry *Parsed::bestPtx() const {
  const Entry *best = nullptr;
  for (const Entry &e : entries)
    if (e.kind == kKindPtx && (!best || e.arch > best->arch))
      best = &e;
  return best;
}

const Entry *Parsed::wfx() const {
  for (const Entry &e : entries)
    if (e.kind == kKindWfx)
      return &e;
  return nullptr;
}

std::string Parsed::elfArchs() const {
  std::string s;
  for (const Entry &e : entries)
    if (e.kind == kKindElf)
      s += (s.empty() ? "sm_" : ", sm_") + std::to_string(e.arch);
  return s.empty() ? "none" : s;
}

/// Decompresses a zstd payload whose header claims `declared` bytes, refusing sizes past
/// kMaxEntryBytes and frames that disagree with the entry header about their size.
static bool decompressZstd(const uint8_t *payload, uint64_t csize, uint64_t declared,
                           std::vector<uint8_t> &out, std::string &error) {
  if (declared > kMaxEntryBytes) {
    error = "fatbinary entry claims " + std::to_string(declared) +
            " uncompressed bytes, more than the " + std::to_string(kMaxEntryBytes) +
            "-byte limit";
    return false;
  }
  unsigned long long frame = ZSTD_getFrameContentSize(payload, csize);
  if (frame == ZSTD_CONTENTSIZE_ERROR) {
    error = "fatbinary entry is not a zstd frame";
    return false;
  }
  if (frame != ZSTD_CONTENTSIZE_UNKNOWN && frame > declared) {
    error = "fatbinary entry's zstd frame holds " + std::to_string(frame) +
            " bytes, more than the entry header's " + std::to_string(declared);
    return false;
  }
  // Streamed, so memory follows what the frame really produces, never what a header claims.
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx *)> ctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!ctx) {
    error = "zstd decompression of a fatbinary entry failed: out of memory";
    return false;
  }
  ZSTD_inBuffer in{payload, size_t(csize), 0};
  std::vector<uint8_t> chunk(ZSTD_DStreamOutSize());
  out.clear();
  while (true) {
    ZSTD_outBuffer piece{chunk.data(), chunk.size(), 0};
    size_t left = ZSTD_decompressStream(ctx.get(), &piece, &in);
    if (ZSTD_isError(left)) {
      error = std::string("zstd decompression of a fatbinary entry failed: ") +
              ZSTD_getErrorName(left);
      return false;
    }
    if (piece.pos > declared - out.size()) {
      error = "fatbinary entry decompresses to more than the entry header's " +
              std::to_string(declared) + " bytes";
      return false;
    }
    out.insert(out.end(), chunk.data(), chunk.data() + piece.pos);
    if (left == 0)
      break; // the frame is complete
    if (in.pos == in.size && piece.pos < piece.size) {
      error = "fatbinary entry's zstd frame is truncated";
      return false;
    }
  }
  return true;
}

/// One fatbinary at `data`. `limit` is the number of readable bytes (0: unknown, so the header's
/// own sizes are trusted up to kMaxFatbinBytes). Every entry's header and payload are checked to
/// lie inside the fatbinary before they are read.
static bool parseOne(const uint8_t *data, size_t limit, Parsed &out, std::string &error,
                     size_t &consumed) {
  Header h;
  if (limit && limit < sizeof h) {
    error = "fatbinary truncated (header)";
    return false;
  }
  std::memcpy(&h, data, sizeof h);
  if (h.magic != kFatbinMagic) {
    error = "not a fatbinary (bad magic)";
    return false;
  }
  if (h.headerSize < sizeof h) {
    error = "fatbinary header too small";
    return false;
  }
  if (h.fatSize > kMaxFatbinBytes) {
    error = "fatbinary claims " + std::to_string(h.fatSize) + " bytes of entries, more than the " +
            std::to_string(kMaxFatbinBytes) + "-byte limit";
    return false;
  }
  uint64_t total = uint64_t(h.headerSize) + h.fatSize;
  if (limit && total > limit) {
    error = "fatbinary truncated (entries)";
    return false;
  }
  uint64_t off = h.headerSize;
  while (off < total) {
    EntryHeader e;
    uint64_t left = total - off;
    if (left < sizeof e) {
      error = "fatbinary entry header truncated";
      return false;
    }
    std::memcpy(&e, data + off, sizeof e);
    // Each size is compared with what is left before anything is subtracted from it.
    if (e.headerSize < sizeof e || e.headerSize > left ||
        e.payloadSize > left - e.headerSize) {
      error = "fatbinary entry sizes out of range";
      return false;
    }
    const uint8_t *payload = data + off + e.headerSize;
    Entry entry;
    entry.kind = e.kind;
    entry.arch = e.arch;
    entry.flags = e.flags;
    if (e.flags & kFlagCompressedZstd) {
      entry.compressed = true;
      uint64_t csize = e.compressedSize ? e.compressedSize : e.payloadSize;
      if (csize > e.payloadSize) {
        error = "fatbinary compressed size out of range";
        return false;
      }
      if (!decompressZstd(payload, csize, e.uncompressedSize, entry.payload, error))
        return false;
    } else if (e.flags & kFlagCompressedLz) {
      entry.compressed = true;
      if (e.kind == kKindPtx) {
        error = "fatbinary PTX entry uses the older LZ compression, which Warpforge does not "
                "read; rebuild with nvcc 12.8 or newer, or with -Xfatbin=-compress=false";
        return false;
      }
    } else {
      entry.payload.assign(payload, payload + e.payloadSize);
    }
    if (entry.kind == kKindPtx)
      while (!entry.payload.empty() && entry.payload.back() == 0)
        entry.payload.pop_back();
    out.entries.push_back(std::move(entry));
    off += e.headerSize + e.payloadSize;
  }
  consumed = total;
  return true;
}

bool parse(const uint8_t *data, size_t limit, Parsed &out, std::string &error) {
  size_t consumed = 0;
  if (!parseOne(data, limit, out, error, consumed))
    return false;
  while (limit && limit - consumed >= sizeof(Header)) {
    uint32_t magic;
    std::memcpy(&magic, data + consumed, 4);
    if (magic != kFatbinMagic)
      break;
    size_t next = 0;
    if (!parseOne(data + consumed, limit - consumed, out, error, next))
      return false;
    consumed += next;
  }
  return true;
}

// clang embeds the named file's bytes plus a NUL; PTX text is the only textual payload.
static constexpr size_t kMaxPtxBytes = size_t(1) << 30;

/// PTX text as written by a front end: comments, then directives, ".version" among the first.
static bool looksLikePtx(const char *text, size_t size) {
  std::string_view view(text, size);
  size_t version = view.find(".version");
  if (version == std::string_view::npos || view.find(".target") == std::string_view::npos)
    return false;
  for (size_t i = 0; i < version; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t')
      return false;
  }
  return true;
}

/// "sm_75" in the ".target" directive as 75; 0 when absent.
static uint32_t ptxTargetArch(std::string_view text) {
  size_t at = text.find(".target");
  if (at == std::string_view::npos)
    return 0;
  size_t sm = text.find("sm_", at);
  if (sm == std::string_view::npos || text.find('\n', at) < sm)
    return 0;
  uint32_t arch = 0;
  for (size_t i = sm + 3; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
    arch = arch * 10 + uint32_t(text[i] - '0');
  return arch;
}

/// The raw payload of clang's wrapper: a fatbinary, a .wfx module, or PTX text.
static bool parseRaw(const uint8_t *data, Parsed &out, std::string &error) {
  const char *text = reinterpret_cast<const char *>(data);
  if (text[0] == 0) {
    error = "the embedded device code is empty";
    return false;
  }
  // Neither magic holds a NUL byte, so a shorter NUL-terminated payload is read as text.
  uint32_t magic = 0;
  bool fourBytes = strnlen(text, 4) == 4;
  if (fourBytes)
    std::memcpy(&magic, data, 4);
  if (magic == kFatbinMagic)
    return parse(data, 0, out, error);
  if (fourBytes && std::memcmp(data, "WFXM", 4) == 0) {
    // Header: magic, version, flags, header size, then the total size (docs/wfx.md).
    uint32_t headerSize, totalSize;
    std::memcpy(&headerSize, data + 12, 4);
    std::memcpy(&totalSize, data + 16, 4);
    if (headerSize < 32 || totalSize < headerSize) {
      error = "embedded .wfx module has a malformed header";
      return false;
    }
    Entry entry;
    entry.kind = kKindWfx;
    entry.payload.assign(data, data + totalSize);
    out.entries.push_back(std::move(entry));
    return true;
  }
  size_t size = strnlen(text, kMaxPtxBytes);
  if (size < kMaxPtxBytes && looksLikePtx(text, size)) {
    Entry entry;
    entry.kind = kKindPtx;
    entry.arch = ptxTargetArch(std::string_view(text, size));
    entry.payload.assign(data, data + size);
    out.entries.push_back(std::move(entry));
    return true;
  }
  std::string first;
  for (size_t i = 0; i < 4 && i < size; ++i) {
    char hex[4];
    std::snprintf(hex, sizeof hex, "%s%02x", i ? " " : "", data[i]);
    first += hex;
  }
  error = "the embedded device code is neither an nvcc fatbinary, PTX text nor a .wfx module "
          "(it starts with bytes " +
          first + "); build with nvcc, or with warpforge cc";
  return false;
}

bool parseWrapper(const void *wrapper, Parsed &out, std::string &error) {
  if (!wrapper) {
    error = "null fatbinary";
    return false;
  }
  Wrapper w;
  std::memcpy(&w, wrapper, sizeof w);
  if (w.magic != kWrapperMagic) {
    // Some callers pass the fatbinary itself.
    uint32_t magic;
    std::memcpy(&magic, wrapper, 4);
    if (magic == kFatbinMagic)
      return parse(static_cast<const uint8_t *>(wrapper), 0, out, error);
    error = "unknown fatbinary wrapper magic";
    return false;
  }
  if (!w.data) {
    error = "fatbinary wrapper without data";
    return false;
  }
  // nvcc's wrapper points at a fatbinary; clang's at whatever file it was asked to embed.
  return parseRaw(static_cast<const uint8_t *>(w.data), out, error);
}

std::vector<uint8_t> build(const std::vector<Entry> &entries, bool compress) {
  std::vector<uint8_t> body;
  for (const Entry &entry : entries) {
    EntryHeader e{};
    e.kind = entry.kind;
    e.version = 0x0101;
    e.headerSize = sizeof e;
    e.arch = entry.arch;
    e.flags = kFlag64Bit | 0x10 | (entry.flags & ~(kFlagCompressedZstd | kFlagCompressedLz));
    std::vector<uint8_t> payload = entry.payload;
    if (entry.kind == kKindPtx)
      payload.push_back(0);
    if (compress && entry.kind == kKindPtx) {
      std::vector<uint8_t> c(ZSTD_compressBound(payload.size()));
      size_t n = ZSTD_compress(c.data(), c.size(), payload.data(), payload.size(), 3);
      c.resize(n);
      e.flags |= kFlagCompressedZstd;
      e.compressedSize = uint32_t(n);
      e.uncompressedSize = payload.size();
      payload = std::move(c);
    }
    while (payload.size() % 8)
      payload.push_back(0);
    e.payloadSize = payload.size();
    const uint8_t *p = reinterpret_cast<const uint8_t *>(&e);
    body.insert(body.end(), p, p + sizeof e);
    body.insert(body.end(), payload.begin(), payload.end());
  }
  Header h{kFatbinMagic, 1, sizeof(Header), body.size()};
  std::vector<uint8_t> out(reinterpret_cast<const uint8_t *>(&h),
                           reinterpret_cast<const uint8_t *>(&h) + sizeof h);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

} // namespace wf::rt::fatbin
