//===- InstrTable.cpp - The PTX instruction table -------------------------===//
//
// Part of Warpforge. Builds the typed tables from InstrTable.def and
// SpecialRegs.def once, on first use.
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/InstrTable.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace wf::ptx {

namespace {

struct RawInstr {
  Op op;
  std::string_view spelling;
  Category category;
  std::string_view syntax;
  std::string_view operands;
  uint8_t minOperands;
  Status status;
  std::string_view how;
};

constexpr RawInstr kRawInstrs[] = {
#define PTX_INSTR(Id, Spelling, Cat, Syntax, Operands, MinOperands, St, How)                       \
  {Op::Id, Spelling, Category::Cat, Syntax, Operands, MinOperands, Status::St, How},
#include "warpforge/ptx/InstrTable.def"
};

struct RawRule {
  Op op;
  ModGroup group;
  bool required;
  Status status;
  std::string_view modifiers;
  std::string_view how;
};

constexpr RawRule kRawRules[] = {
#define PTX_MODS(Instr, Group, Required, St, Modifiers, How)                                       \
  {Op::Instr, ModGroup::Group, Required, Status::St, Modifiers, How},
#include "warpforge/ptx/InstrTable.def"
};

constexpr std::string_view kCategoryTitles[] = {
#define PTX_CATEGORY(Id, Title) Title,
#include "warpforge/ptx/InstrTable.def"
};

struct GroupRow {
  std::string_view title;
  bool exclusive;
};

constexpr GroupRow kGroups[] = {
#define PTX_GROUP(Id, Title, Exclusive) {Title, Exclusive},
#include "warpforge/ptx/InstrTable.def"
};

constexpr SRegInfo kSRegs[] = {
#define PTX_SREG(Id, Name, Count, Suffix, Components, Bits, St, How)                               \
  {SReg::Id, Name, Count, Suffix, Components, Bits, Status::St, How},
#include "warpforge/ptx/SpecialRegs.def"
};

static_assert(std::size(kRawInstrs) == kNumOps, "one row per Op");

/// Splits "a b  c" at spaces.
template <typename Fn> void forEachWord(std::string_view S, Fn F) {
  size_t I = 0;
  while (I < S.size()) {
    while (I < S.size() && S[I] == ' ')
      ++I;
    size_t J = I;
    while (J < S.size() && S[J] != ' ')
      ++J;
    if (J > I)
      F(S.substr(I, J - I));
    I = J;
  }
}

template <typename Fn> void forEachSegment(std::string_view S, Fn F) {
  size_t I = 0;
  while (true) {
    size_t J = S.find('.', I);
    F(S.substr(I, J == std::string_view::npos ? std::string_view::npos : J - I));
    if (J == std::string_view::npos)
      return;
    I = J + 1;
  }
}

struct Tables {
  std::vector<ModRule> rules;
  std::vector<InstrInfo> instrs;
  std::vector<std::vector<std::string_view>> nameSegments; ///< per Op
  /// First name segment -> instructions, longest spelling first.
  std::unordered_map<std::string_view, std::vector<Op>> byBase;
  std::unordered_map<std::string_view, SReg> singleSRegs;
  std::vector<std::string> problems;
};

Tables buildTables() {
  Tables T;
  // Rules grouped per instruction, table order kept within each.
  std::vector<RawRule> Raw(std::begin(kRawRules), std::end(kRawRules));
  std::stable_sort(Raw.begin(), Raw.end(),
                   [](const RawRule &A, const RawRule &B) { return A.op < B.op; });
  T.rules.reserve(Raw.size());
  for (const RawRule &R : Raw) {
    ModRule M{R.op, R.group, R.required, R.status, R.modifiers, R.how, {}};
    forEachWord(R.modifiers, [&](std::string_view W) {
      if (std::optional<Mod> Found = lookupMod(W))
        M.set.set(static_cast<unsigned>(*Found));
      else
        T.problems.push_back("unknown modifier '" + std::string(W) + "' in the rules of '" +
                             std::string(kRawInstrs[static_cast<unsigned>(R.op)].spelling) + "'");
    });
    T.rules.push_back(M);
  }
  T.instrs.reserve(kNumOps);
  T.nameSegments.resize(kNumOps);
  size_t RuleIdx = 0;
  for (const RawInstr &I : kRawInstrs) {
    size_t Begin = RuleIdx;
    while (RuleIdx < T.rules.size() && T.rules[RuleIdx].op == I.op)
      ++RuleIdx;
    std::span<const ModRule> Rules(T.rules.data() + Begin, RuleIdx - Begin);
    T.instrs.push_back(InstrInfo{I.op, I.spelling, I.category, I.syntax, I.operands, I.minOperands,
                                 I.status, I.how, Rules});
    auto &Segs = T.nameSegments[static_cast<unsigned>(I.op)];
    forEachSegment(I.spelling, [&](std::string_view S) { Segs.push_back(S); });
    T.byBase[Segs.front()].push_back(I.op);
    if (I.minOperands > I.operands.size())
      T.problems.push_back("'" + std::string(I.spelling) + "' needs more operands than it lists");
    for (char C : I.operands)
      if (std::string_view("dsmtx").find(C) == std::string_view::npos)
        T.problems.push_back("'" + std::string(I.spelling) + "' has a bad operand letter");
  }
  for (auto &[Base, Ops] : T.byBase)
    std::stable_sort(Ops.begin(), Ops.end(), [&](Op A, Op B) {
      return T.nameSegments[static_cast<unsigned>(A)].size() >
             T.nameSegments[static_cast<unsigned>(B)].size();
    });
  for (const SRegInfo &R : kSRegs)
    if (R.count == 0)
      T.singleSRegs.emplace(R.name, R.id);
  return T;
}

const Tables &tables() {
  static const Tables T = buildTables();
  return T;
}

std::string dotted(Mod M) { return "." + std::string(spelling(M)); }

} // namespace

std::string_view statusName(Status S) {
  switch (S) {
  case Status::Supported:
    return "supported";
  case Status::Lowered:
    return "lowered";
  case Status::Later:
    return "later";
  case Status::Rejected:
    return "rejected";
  }
  return "";
}

std::span<const InstrInfo> allInstrs() { return tables().instrs; }

const InstrInfo &instrInfo(Op O) { return tables().instrs[static_cast<unsigned>(O)]; }

std::string_view categoryTitle(Category C) { return kCategoryTitles[static_cast<unsigned>(C)]; }

std::string_view groupTitle(ModGroup G) { return kGroups[static_cast<unsigned>(G)].title; }

bool isExclusive(ModGroup G) { return kGroups[static_cast<unsigned>(G)].exclusive; }

std::optional<OpcodeMatch> matchOpcode(std::span<const std::string_view> Segments) {
  if (Segments.empty())
    return std::nullopt;
  const Tables &T = tables();
  auto It = T.byBase.find(Segments[0]);
  if (It == T.byBase.end())
    return std::nullopt;
  for (Op Candidate : It->second) {
    const auto &Name = T.nameSegments[static_cast<unsigned>(Candidate)];
    uint64_t Used = 1;
    bool Ok = true;
    for (size_t K = 1; K < Name.size() && Ok; ++K) {
      Ok = false;
      for (size_t S = 1; S < Segments.size() && S < 64; ++S) {
        if (!(Used & (uint64_t(1) << S)) && Segments[S] == Name[K]) {
          Used |= uint64_t(1) << S;
          Ok = true;
          break;
        }
      }
    }
    if (Ok)
      return OpcodeMatch{Candidate, Used};
  }
  return std::nullopt;
}

ModCheck checkModifiers(Op O, std::span<const Mod> Mods) {
  const InstrInfo &Info = instrInfo(O);
  ModCheck R;
  R.status = Info.status;
  constexpr unsigned NumGroups = static_cast<unsigned>(ModGroup::NumGroups);
  std::array<int, NumGroups> GroupUser;
  GroupUser.fill(-1);
  std::bitset<kNumMods> Seen;
  if (Mods.size() > kMaxInstrMods) {
    R.error = "too many modifiers";
    R.badIndex = kMaxInstrMods;
    return R;
  }
  for (size_t I = 0; I < Mods.size(); ++I) {
    Mod M = Mods[I];
    unsigned MI = static_cast<unsigned>(M);
    // A modifier may repeat only where it fills another group (cvt.f32.f32).
    bool Repeated = Seen.test(MI);
    Seen.set(MI);
    const ModRule *Chosen = nullptr;
    const ModRule *Blocked = nullptr;
    for (const ModRule &Rule : Info.rules) {
      if (!Rule.set.test(MI))
        continue;
      unsigned G = static_cast<unsigned>(Rule.group);
      if (isExclusive(Rule.group) && GroupUser[G] >= 0) {
        Blocked = &Rule;
        continue;
      }
      Chosen = &Rule;
      break;
    }
    if (Repeated && (!Chosen || !isExclusive(Chosen->group))) {
      R.error = "repeated modifier '" + dotted(M) + "'";
      R.badIndex = static_cast<int>(I);
      return R;
    }
    if (!Chosen) {
      R.badIndex = static_cast<int>(I);
      if (Blocked) {
        Mod Other = Mods[GroupUser[static_cast<unsigned>(Blocked->group)]];
        R.error = "modifier '" + dotted(M) + "' conflicts with '" + dotted(Other) +
                  "' (both are a " + std::string(groupTitle(Blocked->group)) + ")";
      } else {
        R.error =
            "modifier '" + dotted(M) + "' is not valid for '" + std::string(Info.spelling) + "'";
      }
      return R;
    }
    GroupUser[static_cast<unsigned>(Chosen->group)] = static_cast<int>(I);
    R.ruleOf[I] = Chosen;
    if (Chosen->status > R.status) {
      R.status = Chosen->status;
      R.statusRule = Chosen;
    }
  }
  // One rule the groups cannot express: integer mul and mad need .lo, .hi or
  // .wide, and floating-point ones take none of them.
  if (O == Op::Mul || O == Op::Mad) {
    int ModeIdx = GroupUser[static_cast<unsigned>(ModGroup::Mode)];
    int TypeIdx = GroupUser[static_cast<unsigned>(ModGroup::Type)];
    if (TypeIdx >= 0) {
      Type T = toType(Mods[TypeIdx]);
      if (isInteger(T) && ModeIdx < 0) {
        R.error = "integer '" + std::string(Info.spelling) + "' needs .lo, .hi or .wide";
        return R;
      }
      if (!isInteger(T) && ModeIdx >= 0) {
        R.error = "modifier '" + dotted(Mods[ModeIdx]) + "' is not valid for floating-point '" +
                  std::string(Info.spelling) + "'";
        R.badIndex = ModeIdx;
        return R;
      }
    }
  }
  for (const ModRule &Rule : Info.rules) {
    if (!Rule.required || GroupUser[static_cast<unsigned>(Rule.group)] >= 0)
      continue;
    std::string Options;
    unsigned Shown = 0;
    for (const ModRule &Other : Info.rules) {
      if (Other.group != Rule.group)
        continue;
      forEachWord(Other.modifiers, [&](std::string_view W) {
        if (Shown++ < 8)
          Options += (Options.empty() ? "." : ", .") + std::string(W);
      });
    }
    if (Shown > 8)
      Options += ", ...";
    R.error = "'" + std::string(Info.spelling) + "' needs a " +
              std::string(groupTitle(Rule.group)) + " modifier (" + Options + ")";
    return R;
  }
  return R;
}

std::vector<std::string> checkTableConsistency() {
  const Tables &T = tables();
  std::vector<std::string> Problems = T.problems;
  // Within one instruction, a modifier may appear in several groups only when
  // the groups are filled in order (types); otherwise matching is ambiguous.
  for (const InstrInfo &I : T.instrs) {
    for (size_t A = 0; A < I.rules.size(); ++A)
      for (size_t B = A + 1; B < I.rules.size(); ++B) {
        if (I.rules[A].group == I.rules[B].group)
          continue;
        auto Both = I.rules[A].set & I.rules[B].set;
        if (Both.none())
          continue;
        // Groups filled in order: a type then a source type, a primary then a
        // secondary mode. Any other overlap is a mistake in the table.
        ModGroup Later = I.rules[B].group; // rules are in table order
        bool Ordered =
            Later == ModGroup::SrcType || Later == ModGroup::Type3 || Later == ModGroup::Type4 ||
            Later == ModGroup::Mode2;
        if (!Ordered)
          Problems.push_back("'" + std::string(I.spelling) + "': a modifier is in two groups: " +
                             std::string(I.rules[A].modifiers) + " / " +
                             std::string(I.rules[B].modifiers));
      }
  }
  // Spellings must be unique.
  std::unordered_map<std::string_view, int> Names;
  for (const InstrInfo &I : T.instrs)
    if (++Names[I.spelling] > 1)
      Problems.push_back("instruction '" + std::string(I.spelling) + "' is listed twice");
  return Problems;
}

std::span<const SRegInfo> allSRegs() { return kSRegs; }

const SRegInfo &sregInfo(SReg R) { return kSRegs[static_cast<unsigned>(R)]; }

std::optional<SRegRef> lookupSReg(std::string_view Name) {
  const Tables &T = tables();
  if (auto It = T.singleSRegs.find(Name); It != T.singleSRegs.end())
    return SRegRef{It->second, 0, -1};
  for (const SRegInfo &R : kSRegs) {
    if (R.count == 0 || Name.size() <= R.name.size() + R.suffix.size() ||
        Name.substr(0, R.name.size()) != R.name ||
        Name.substr(Name.size() - R.suffix.size()) != R.suffix)
      continue;
    std::string_view Digits =
        Name.substr(R.name.size(), Name.size() - R.name.size() - R.suffix.size());
    if (Digits.empty() || Digits.size() > 3 || (Digits.size() > 1 && Digits[0] == '0'))
      continue;
    unsigned V = 0;
    bool Ok = true;
    for (char C : Digits) {
      if (C < '0' || C > '9') {
        Ok = false;
        break;
      }
      V = V * 10 + unsigned(C - '0');
    }
    if (Ok && V < R.count)
      return SRegRef{R.id, static_cast<uint8_t>(V), -1};
  }
  return std::nullopt;
}

} // namespace wf::ptx
