// Inline PTX translated to C++ (see ptx_translate.hpp). Each instruction becomes one statement on
// the registers of the asm statement's operands and of the template's `.reg` declarations; the
// semantics live in grader/emu/include/gpulab/emu/inline_ptx.hpp. Written by hand: the rewriter
// reads only the small PTX subset course code writes inline.
#include "rewriter/ptx_translate.hpp"

#include "rewriter/ptx_program.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace gpulab::rewriter {
namespace {

const std::string ns = "::gpulab::emu::ptx::";
const std::string where = "__FILE__, __LINE__";
const std::string u32 = "::std::uint32_t";
const std::string u64 = "::std::uint64_t";

const char* const supported =
    "The emulator runs moves from special registers (%laneid, %warpid, %smid, %clock, %clock64, %globaltimer, "
    "%lanemask_*, %tid.x, ...), membar, fence, bar.sync 0, prmt, brev, bfe, bfi, bfind, popc, clz, lop3, "
    "shfl.sync, vote.sync, activemask, ld and st (.global, .shared, .nc, .v2, .v4), cvta, cp.async, and the "
    "mov, cvt, setp, selp, add, sub, mul.lo, and, or, xor, not, shl, shr, min, max and neg around them. Write this "
    "step in CUDA C++ (e.g. __shfl_sync, __ballot_sync, __brev, __byte_perm, __ldg) or run the file on a GPU "
    "(gpulab run --backend cuda)";

// The C++ type of a PTX type suffix; nullopt for types the emulator does not run (f16, b128, ...).
std::optional<std::string> cpp_type(const std::string& t) {
  static const std::map<std::string, std::string> types = {
      {"b8", "::std::uint8_t"},
      {"u8", "::std::uint8_t"},
      {"s8", "::std::int8_t"},
      {"b16", "::std::uint16_t"},
      {"u16", "::std::uint16_t"},
      {"s16", "::std::int16_t"},
      {"b32", u32},
      {"u32", u32},
      {"s32", "::std::int32_t"},
      {"b64", u64},
      {"u64", u64},
      {"s64", "::std::int64_t"},
      {"f32", "float"},
      {"f64", "double"},
      {"pred", "bool"},
  };
  const auto it = types.find(t);
  if (it == types.end()) return std::nullopt;
  return it->second;
}

int type_bits(const std::string& t) {
  if (t == "pred") return 1;
  return std::stoi(t.substr(1));
}
bool is_float_type(const std::string& t) { return t == "f32" || t == "f64"; }
std::string unsigned_of_bits(int bits) { return "::std::uint" + std::to_string(bits) + "_t"; }

// The C++ expression of a special register, and its width.
std::optional<std::pair<std::string, int>> special_register(const std::string& name) {
  static const std::map<std::string, std::pair<std::string, int>> regs = {
      {"%laneid", {ns + "laneid()", 32}},
      {"%warpid", {ns + "warpid()", 32}},
      {"%nwarpid", {ns + "nwarpid()", 32}},
      {"%smid", {ns + "smid()", 32}},
      {"%nsmid", {ns + "nsmid()", 32}},
      {"%clock", {ns + "clock_lo()", 32}},
      {"%clock_hi", {ns + "clock_hi()", 32}},
      {"%clock64", {ns + "clock64_reg()", 64}},
      {"%globaltimer", {ns + "globaltimer()", 64}},
      {"%globaltimer_lo", {ns + "globaltimer_lo()", 32}},
      {"%globaltimer_hi", {ns + "globaltimer_hi()", 32}},
      {"%lanemask_eq", {ns + "lanemask_eq()", 32}},
      {"%lanemask_lt", {ns + "lanemask_lt()", 32}},
      {"%lanemask_le", {ns + "lanemask_le()", 32}},
      {"%lanemask_gt", {ns + "lanemask_gt()", 32}},
      {"%lanemask_ge", {ns + "lanemask_ge()", 32}},
      {"%dynamic_smem_size", {ns + "dynamic_smem_size()", 32}},
  };
  if (const auto it = regs.find(name); it != regs.end()) return it->second;
  static const std::map<std::string, std::string> dims = {
      {"%tid", "threadIdx"}, {"%ntid", "blockDim"}, {"%ctaid", "blockIdx"}, {"%nctaid", "gridDim"}};
  const std::size_t dot = name.find('.');
  if (dot != std::string::npos) {
    if (const auto it = dims.find(name.substr(0, dot)); it != dims.end()) {
      return std::make_pair("static_cast<" + u32 + ">(" + it->second + name.substr(dot) + ")", 32);
    }
  }
  return std::nullopt;
}

struct Refused {
  std::string message;
};

class Translator {
 public:
  explicit Translator(const AsmStatement& s) : s_(s) {}

  std::string run() {
    operands();
    std::vector<std::string> names;
    for (const AsmOperand& o : s_.outputs) names.push_back(o.name);
    for (const AsmOperand& o : s_.inputs) names.push_back(o.name);
    auto parsed = parse_ptx(s_.text, names);
    if (auto* e = std::get_if<std::string>(&parsed)) {
      throw Refused{"inline PTX the emulator cannot read: " + *e + ". " + supported};
    }
    const PtxProgram& program = std::get<PtxProgram>(parsed);
    for (const PtxRegister& r : program.registers) {
      const auto type = cpp_type(r.type);
      if (!type)
        throw Refused{"inline PTX declares a register of type ." + r.type + ", which the emulator does not run"};
      const std::string var = "gpulab_ptx_r" + std::to_string(locals_.size());
      locals_[r.name] = var;
      declarations_ += "[[maybe_unused]] " + *type + " " + var + " = {}; ";
    }
    for (const PtxInstruction& in : program.instructions) instruction(in);
    std::string code = "do { " + bindings_ + declarations_;
    if (sink_used_) code += "[[maybe_unused]] unsigned long long gpulab_ptx_sink = 0; ";
    code += body_ + writebacks_ + "} while (0)";
    return code;
  }

 private:
  const AsmStatement& s_;
  std::vector<char> letter_;
  std::vector<std::string> var_;
  std::vector<bool> writable_;
  std::map<std::string, std::string> locals_;
  std::string bindings_, declarations_, body_, writebacks_;
  const PtxInstruction* in_ = nullptr;
  bool sink_used_ = false;
  int temporaries_ = 0;

  [[noreturn]] void refuse(const std::string& why) const {
    const std::string op = in_ ? opcode_text(*in_) : std::string();
    if (in_) {
      throw Refused{"inline PTX instruction '" + op + "' (in '" + in_->text + "') " + why + ". " + supported};
    }
    throw Refused{"inline PTX " + why + ". " + supported};
  }

  static char letter_of(const std::string& constraint) {
    for (const char c : constraint) {
      if (c == '=' || c == '+' || c == '&' || c == ' ') continue;
      return c;
    }
    return 0;
  }

  // One C++ register per asm operand: outputs bound to their lvalue and copied back at the end,
  // inputs evaluated once, in order, before any instruction runs.
  void operands() {
    const std::size_t n_out = s_.outputs.size();
    for (std::size_t k = 0; k < n_out; ++k) {
      const AsmOperand& o = s_.outputs[k];
      const char c = letter_of(o.constraint);
      if (o.constraint.find('=') == std::string::npos && o.constraint.find('+') == std::string::npos) {
        refuse("has the output operand \"" + o.constraint + "\" without = or +");
      }
      if (std::string("hrlfd").find(c) == std::string::npos || c == 0) {
        refuse("has the output constraint \"" + o.constraint +
               "\", which the emulator does not support (only h, r, "
               "l, f and d registers)");
      }
      const std::string var = "gpulab_ptx" + std::to_string(k), bound = "gpulab_ptx_o" + std::to_string(k);
      bindings_ += "auto&& " + bound + " = (" + o.expression + "); ";
      const std::string init =
          o.constraint.find('+') != std::string::npos ? ns + "in<'" + c + "'>(" + bound + ")" : std::string("{}");
      bindings_ += ns + "reg<'" + c + "'> " + var + " = " + init + "; ";
      writebacks_ += ns + "out(" + bound + ", " + var + "); ";
      letter_.push_back(c);
      var_.push_back(var);
      writable_.push_back(true);
    }
    for (std::size_t j = 0; j < s_.inputs.size(); ++j) {
      const AsmOperand& o = s_.inputs[j];
      const std::size_t k = n_out + j;
      if (!o.constraint.empty() &&
          std::all_of(o.constraint.begin(), o.constraint.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
        const std::size_t tied = std::stoul(o.constraint);
        if (tied >= n_out) refuse("ties an input to operand " + o.constraint + ", which is not an output");
        bindings_ += var_[tied] + " = " + ns + "in<'" + letter_[tied] + "'>((" + o.expression + ")); ";
        letter_.push_back(letter_[tied]);
        var_.push_back(var_[tied]);
        writable_.push_back(true);
        continue;
      }
      char c = letter_of(o.constraint);
      if (c == 'i') c = 'n';
      if (std::string("hrlfdn").find(c) == std::string::npos || c == 0) {
        refuse("has the input constraint \"" + o.constraint +
               "\", which the emulator does not support (only h, r, l, "
               "f, d and n)");
      }
      const std::string var = "gpulab_ptx" + std::to_string(k);
      bindings_ += "[[maybe_unused]] const " + ns + "reg<'" + c + "'> " + var + " = " + ns + "in<'" + c + "'>((" +
                   o.expression + ")); ";
      letter_.push_back(c);
      var_.push_back(var);
      writable_.push_back(false);
    }
  }

  std::string temp() { return "gpulab_ptx_t" + std::to_string(temporaries_++); }

  std::string type_of(const std::string& t) const {
    const auto c = cpp_type(t);
    if (!c) refuse("uses the type ." + t + ", which the emulator does not run");
    return *c;
  }

  // A source operand read as the C++ type `type`.
  std::string src(const PtxOperand& op, const std::string& type) const {
    std::string e;
    switch (op.kind) {
      case PtxOperand::Kind::asm_operand: e = ns + "as<" + type + ">(" + var_[op.index] + ")"; break;
      case PtxOperand::Kind::name: {
        if (const auto it = locals_.find(op.text); it != locals_.end()) {
          e = ns + "as<" + type + ">(" + it->second + ")";
        } else if (const auto sr = special_register(op.text)) {
          e = ns + "as<" + type + ">(" + sr->first + ")";
        } else {
          refuse("reads the register " + op.text +
                 ", which is neither declared in the template nor a special "
                 "register the emulator knows");
        }
        break;
      }
      case PtxOperand::Kind::integer:
      case PtxOperand::Kind::real: e = ns + "imm<" + type + ">(" + op.text + ")"; break;
      case PtxOperand::Kind::f32_bits: e = ns + "as<" + type + ">(" + ns + "f32_bits(0x" + op.text + "u))"; break;
      case PtxOperand::Kind::f64_bits: e = ns + "as<" + type + ">(" + ns + "f64_bits(0x" + op.text + "ull))"; break;
      default: refuse("has an operand (an address, vector or _) where a value was expected");
    }
    if (op.negated) {
      if (type != "bool") refuse("negates an operand that is not a predicate");
      e = "!" + e;
    }
    return e;
  }

  // A destination register.
  std::string dst(const PtxOperand& op) {
    if (op.negated) refuse("negates a destination");
    switch (op.kind) {
      case PtxOperand::Kind::asm_operand:
        if (!writable_[op.index]) refuse("writes %" + std::to_string(op.index) + ", an input operand");
        return var_[op.index];
      case PtxOperand::Kind::name: {
        if (const auto it = locals_.find(op.text); it != locals_.end()) return it->second;
        if (special_register(op.text)) refuse("writes the special register " + op.text);
        refuse("writes the register " + op.text + ", which the template does not declare");
      }
      case PtxOperand::Kind::sink: sink_used_ = true; return "gpulab_ptx_sink";
      default: refuse("has a destination that is not a register");
    }
  }

  std::string address(const PtxOperand& op) const {
    if (op.kind != PtxOperand::Kind::address) refuse("has an operand where an address [a] was expected");
    const std::string offset = "static_cast<" + u64 + ">(" + std::to_string(op.offset) + "LL)";
    if (op.parts.empty()) return offset;
    return "(" + src(op.parts[0], u64) + " + " + offset + ")";
  }

  void emit(const std::string& statement) { body_ += statement + " "; }
  void put(const PtxOperand& d, const std::string& value) { emit(ns + "put(" + dst(d) + ", " + value + ");"); }

  void need(std::size_t n) const {
    if (in_->operands.size() != n) {
      refuse("has " + std::to_string(in_->operands.size()) + " operands where the emulator expects " +
             std::to_string(n));
    }
  }
  bool has(const std::string& modifier) const {
    return std::find(in_->opcode.begin() + 1, in_->opcode.end(), modifier) != in_->opcode.end();
  }
  // The instruction's type: its last modifier.
  std::string last() const { return in_->opcode.back(); }
  void only(const std::set<std::string>& allowed) const {
    for (std::size_t i = 1; i < in_->opcode.size(); ++i) {
      if (!allowed.count(in_->opcode[i]))
        refuse("has the modifier ." + in_->opcode[i] + ", which the emulator does not run");
    }
  }

  void instruction(const PtxInstruction& in) {
    in_ = &in;
    const std::string before = body_;
    body_.clear();
    const std::string& op = in.opcode[0];
    if (op == "mov") mov();
    else if (op == "cvt") cvt();
    else if (op == "cvta") cvta();
    else if (op == "ld" || op == "ldu") load();
    else if (op == "st") store();
    else if (op == "membar" || op == "fence") fence();
    else if (op == "bar" || op == "barrier") barrier();
    else if (op == "prmt") prmt();
    else if (op == "brev" || op == "popc" || op == "clz") unary_bits();
    else if (op == "bfe") bfe();
    else if (op == "bfi") bfi();
    else if (op == "bfind") bfind();
    else if (op == "lop3") lop3();
    else if (op == "shfl") shfl();
    else if (op == "vote") vote();
    else if (op == "activemask") activemask();
    else if (op == "setp") setp();
    else if (op == "selp") selp();
    else if (op == "add" || op == "sub" || op == "mul" || op == "and" || op == "or" || op == "xor" || op == "shl" ||
             op == "shr" || op == "min" || op == "max")
      binary();
    else if (op == "not" || op == "neg") unary();
    else if (op == "cp") cp_async();
    else if (op == "nanosleep") {
      need(1);
      emit("__nanosleep(" + src(in.operands[0], u32) + ");");
    } else if (op == "trap") {
      need(0);
      emit("__trap(" + where + ");");
    } else if (op == "prefetch" || op == "prefetchu") {
    }  // a cache hint: nothing to do
    else if (op == "vabsdiff4")
      vabsdiff4();
    else refuse("is not one the emulator runs");
    std::string code = body_;
    body_ = before;
    if (!in.guard.empty()) code = "if (" + src(in.guard[0], "bool") + ") { " + code + "} ";
    body_ += code;
  }

  // ---- data movement ----

  void mov() {
    need(2);
    const std::string t = last();
    const std::string T = type_of(t);
    const PtxOperand& d = in_->operands[0];
    const PtxOperand& a = in_->operands[1];
    if (d.kind == PtxOperand::Kind::vector || a.kind == PtxOperand::Kind::vector) {
      if (t[0] != 'b') refuse("packs or unpacks a vector with a type other than .b16, .b32 or .b64");
      const PtxOperand& v = d.kind == PtxOperand::Kind::vector ? d : a;
      const int n = static_cast<int>(v.parts.size());
      const int bits = type_bits(t);
      if (n < 2 || bits % n != 0 || bits / n < 8) refuse("packs or unpacks a vector the emulator cannot split evenly");
      const std::string U = unsigned_of_bits(bits), E = unsigned_of_bits(bits / n);
      if (d.kind == PtxOperand::Kind::vector) {  // unpack: element 0 is the low part
        const std::string w = temp();
        emit("const " + U + " " + w + " = " + src(a, U) + ";");
        for (int k = 0; k < n; ++k)
          put(d.parts[k], "static_cast<" + E + ">(" + w + " >> " + std::to_string(k * bits / n) + ")");
      } else {
        std::string packed = "(static_cast<" + U + ">(0)";
        for (int k = 0; k < n; ++k)
          packed += " | (static_cast<" + U + ">(" + src(a.parts[k], E) + ") << " + std::to_string(k * bits / n) + ")";
        put(d, packed + ")");
      }
      return;
    }
    put(d, src(a, T));
  }

  void cvt() {
    need(2);
    if (in_->opcode.size() < 3) refuse("has no destination and source types");
    const std::string dt = in_->opcode[in_->opcode.size() - 2], at = last();
    const std::string D = type_of(dt), A = type_of(at);
    std::string rounding;
    bool sat = false;
    for (std::size_t i = 1; i + 2 < in_->opcode.size(); ++i) {
      const std::string& m = in_->opcode[i];
      if (m == "sat") sat = true;
      else if (m == "ftz") {
      } else if (m == "rn" || m == "rz" || m == "rm" || m == "rp" || m == "rni" || m == "rzi" || m == "rmi" ||
                 m == "rpi")
        rounding = m;
      else refuse("has the modifier ." + m + ", which the emulator does not run");
    }
    const std::string value = src(in_->operands[1], A);
    if (!is_float_type(dt) && !is_float_type(at)) {  // integer to integer: extend or truncate (or saturate)
      put(in_->operands[0], sat ? ns + "saturate<" + D + ">(" + value + ")" : "static_cast<" + D + ">(" + value + ")");
    } else if (is_float_type(dt) && is_float_type(at)) {
      if (!rounding.empty() && rounding != "rn") refuse("rounds other than to nearest (.rn)");
      if (sat) refuse("saturates a float");
      put(in_->operands[0], "static_cast<" + D + ">(" + value + ")");
    } else if (is_float_type(dt)) {
      if (!rounding.empty() && rounding != "rn") refuse("rounds other than to nearest (.rn)");
      put(in_->operands[0], "static_cast<" + D + ">(" + value + ")");
    } else {
      const std::map<std::string, int> modes = {{"rni", 0}, {"rzi", 1}, {"rmi", 2}, {"rpi", 3}};
      const auto m = modes.find(rounding);
      if (m == modes.end()) refuse("converts a float to an integer without .rni, .rzi, .rmi or .rpi");
      put(in_->operands[0], ns + "float_to_int<" + D + ">(" + value + ", " + std::to_string(m->second) + ")");
    }
  }

  // A state space modifier as the header's enum, or "" when the modifier is not one.
  static std::string space_of(const std::string& m) {
    if (m == "global") return ns + "space::global";
    if (m == "shared" || m == "shared::cta") return ns + "space::shared";
    if (m == "local") return ns + "space::local";
    if (m == "const") return ns + "space::constant";
    if (m == "param") return ns + "space::param";
    return "";
  }

  void cvta() {
    need(2);
    std::string space;
    bool to = false;
    for (std::size_t i = 1; i + 1 < in_->opcode.size(); ++i) {
      const std::string& m = in_->opcode[i];
      if (m == "to") to = true;
      else if (!space_of(m).empty()) space = space_of(m);
      else refuse("has the modifier ." + m + ", which the emulator does not run");
    }
    if (space.empty()) refuse("names no state space");
    if (last() != "u32" && last() != "u64") refuse("has a type other than .u32 or .u64");
    put(in_->operands[0],
        ns + (to ? "cvta_to<" : "cvta_from<") + space + ">(" + src(in_->operands[1], u64) + ", " + where + ")");
  }

  // The parts of an ld/st opcode.
  struct Access {
    std::string space = ns + "space::generic";
    std::string order = ns + "order::weak";
    int vector = 1;
    std::string type;
    bool cache_hint = false;  // .L2::cache_hint: one more operand, the cache policy
  };
  Access access(bool store) const {
    Access a;
    for (std::size_t i = 1; i + 1 < in_->opcode.size(); ++i) {
      const std::string& m = in_->opcode[i];
      if (!space_of(m).empty()) a.space = space_of(m);
      else if (m == "volatile") a.order = ns + "order::volatile_";
      else if (m == "relaxed") a.order = ns + "order::relaxed";
      else if (m == "acquire" && !store) a.order = ns + "order::acquire";
      else if (m == "release" && store) a.order = ns + "order::release";
      else if (m == "weak" || m == "cta" || m == "gpu" || m == "sys" || m == "cluster") {
      } else if (m == "ca" || m == "cg" || m == "cs" || m == "lu" || m == "cv" || m == "nc" || m == "wb" || m == "wt") {
      } else if (m == "L2::cache_hint") a.cache_hint = true;
      else if (m.rfind("L1::", 0) == 0 || m.rfind("L2::", 0) == 0) {
      } else if (m == "v2") a.vector = 2;
      else if (m == "v4") a.vector = 4;
      else refuse("has the modifier ." + m + ", which the emulator does not run");
    }
    a.type = last();
    if (a.type == "pred") refuse("moves a predicate");
    (void)type_of(a.type);  // a type the emulator knows (`st %fsr, ...` of another assembly has none)
    if (a.vector > 1 && a.order != ns + "order::weak") refuse("is an ordered (.volatile, .relaxed, ...) vector access");
    if (a.vector * type_bits(a.type) > 128) refuse("accesses more than 16 bytes at once");
    return a;
  }

  void load() {
    const Access a = access(false);
    need(a.cache_hint ? 3 : 2);
    const std::string T = type_of(a.type);
    const PtxOperand& d = in_->operands[0];
    const std::string addr = address(in_->operands[1]);
    if (a.vector == 1) {
      put(d, ns + "ld<" + T + ", " + a.space + ", " + a.order + ">(" + addr + ", " + where + ")");
      return;
    }
    if (d.kind != PtxOperand::Kind::vector || static_cast<int>(d.parts.size()) != a.vector) {
      refuse("loads a vector into something other than {" + std::string(a.vector == 2 ? "a, b" : "a, b, c, d") + "}");
    }
    const std::string v = temp();
    emit("const auto " + v + " = " + ns + "ld_vec<" + T + ", " + std::to_string(a.vector) + ", " + a.space + ">(" +
         addr + ", " + where + ");");
    for (int k = 0; k < a.vector; ++k) put(d.parts[k], "static_cast<" + T + ">(" + v + "[" + std::to_string(k) + "])");
  }

  void store() {
    const Access a = access(true);
    need(a.cache_hint ? 3 : 2);
    const std::string T = type_of(a.type);
    const std::string addr = address(in_->operands[0]);
    const PtxOperand& v = in_->operands[1];
    if (a.vector == 1) {
      emit(ns + "st<" + T + ", " + a.space + ", " + a.order + ">(" + addr + ", " + src(v, T) + ", " + where + ");");
      return;
    }
    if (v.kind != PtxOperand::Kind::vector || static_cast<int>(v.parts.size()) != a.vector) {
      refuse("stores a vector from something other than {" + std::string(a.vector == 2 ? "a, b" : "a, b, c, d") + "}");
    }
    std::string elements;
    for (const PtxOperand& e : v.parts) elements += (elements.empty() ? "" : ", ") + src(e, T);
    const std::string V = "typename " + ns + "vector_of<" + T + ", " + std::to_string(a.vector) + ">::type";
    emit(ns + "st_vec<" + T + ", " + std::to_string(a.vector) + ", " + a.space + ">(" + addr + ", " + V + "{" +
         elements + "}, " + where + ");");
  }

  void cp_async() {
    const std::vector<std::string>& o = in_->opcode;
    if (o.size() == 3 && o[1] == "async" && o[2] == "commit_group") {
      need(0);
      emit("__pipeline_commit(" + where + ");");
      return;
    }
    if (o.size() == 3 && o[1] == "async" && o[2] == "wait_group") {
      need(1);
      emit("__pipeline_wait_prior(" + src(in_->operands[0], u32) + ", " + where + ");");
      return;
    }
    if (o.size() == 3 && o[1] == "async" && o[2] == "wait_all") {
      need(0);
      emit("__pipeline_commit(" + where + "); __pipeline_wait_prior(0, " + where + ");");
      return;
    }
    if (o.size() < 5 || o[1] != "async" || (o[2] != "ca" && o[2] != "cg")) refuse("is not one the emulator runs");
    bool shared = false, global = false, hint = false;
    for (std::size_t i = 3; i < o.size(); ++i) {
      if (o[i] == "shared" || o[i] == "shared::cta") shared = true;
      else if (o[i] == "global") global = true;
      else if (o[i] == "L2::cache_hint") hint = true;
      else if (o[i].rfind("L2::", 0) == 0) {
      } else refuse("has the modifier ." + o[i] + ", which the emulator does not run");
    }
    if (!shared || !global) refuse("is not a global-to-shared copy");
    const std::size_t n = in_->operands.size() - (hint ? 1 : 0);
    if (n != 3 && n != 4) refuse("has " + std::to_string(in_->operands.size()) + " operands");
    const std::string size = src(in_->operands[2], u32);
    emit(ns + "cp_async(" + address(in_->operands[0]) + ", " + address(in_->operands[1]) + ", " + size + ", " +
         (n == 4 ? src(in_->operands[3], u32) : size) + ", " + where + ");");
  }

  // ---- synchronisation ----

  void fence() {
    need(0);
    if (in_->opcode[0] == "membar") {
      only({"cta", "gl", "sys"});
    } else {
      only({"sc", "acq_rel", "acquire", "release", "cta", "cluster", "gpu", "sys"});
    }
    emit(ns + "membar();");
  }

  void barrier() {
    if (has("warp")) {
      only({"warp", "sync"});
      need(1);
      emit("__syncwarp(" + src(in_->operands[0], u32) + ", " + where + ");");
      return;
    }
    // bar{.cta}{.sync} / barrier{.cta}{.sync}{.aligned} a{, b} (without .sync, the same) and the
    // .arrive forms. bar.red (a reduction over the barrier) is not run.
    only({"cta", "sync", "arrive", "aligned"});
    const bool arrive = has("arrive");
    if (arrive && has("sync")) refuse("is both .sync and .arrive");
    if (in_->operands.empty() || in_->operands.size() > 2)
      refuse("has " + std::to_string(in_->operands.size()) + " operands");
    const bool count = in_->operands.size() == 2;
    if (arrive && !count) refuse("has no thread count (bar.arrive needs one)");
    emit(ns + "bar_sync(" + src(in_->operands[0], u32) + ", " + (count ? src(in_->operands[1], u32) : "0u") + ", " +
         (count ? "true" : "false") + ", " + (arrive ? "false" : "true") + ", " + where + ");");
  }

  // ---- integer bit manipulation ----

  void prmt() {
    need(4);
    static const std::map<std::string, int> modes = {{"f4e", 1}, {"b4e", 2}, {"rc8", 3},
                                                     {"ecl", 4}, {"ecr", 5}, {"rc16", 6}};
    int mode = 0;
    for (std::size_t i = 1; i < in_->opcode.size(); ++i) {
      const std::string& m = in_->opcode[i];
      if (m == "b32") continue;
      const auto it = modes.find(m);
      if (it == modes.end()) refuse("has the modifier ." + m + ", which the emulator does not run");
      mode = it->second;
    }
    if (!has("b32")) refuse("is not .b32");
    const auto& o = in_->operands;
    put(o[0], ns + "prmt(" + src(o[1], u32) + ", " + src(o[2], u32) + ", " + src(o[3], u32) + ", " +
                  std::to_string(mode) + ")");
  }

  void unary_bits() {  // brev, popc, clz: .b32 or .b64
    need(2);
    only({"b32", "b64"});
    const std::string T = type_of(last());
    const std::string& op = in_->opcode[0];
    put(in_->operands[0], ns + op + "(" + src(in_->operands[1], T) + ")");
  }

  void bfe() {
    need(4);
    only({"u32", "s32", "u64", "s64"});
    const std::string T = type_of(last());
    const auto& o = in_->operands;
    put(o[0], ns + "bfe<" + T + ">(" + src(o[1], T) + ", " + src(o[2], u32) + ", " + src(o[3], u32) + ")");
  }

  void bfi() {
    need(5);
    only({"b32", "b64"});
    const std::string T = type_of(last());
    const auto& o = in_->operands;
    put(o[0], ns + "bfi<" + T + ">(" + src(o[1], T) + ", " + src(o[2], T) + ", " + src(o[3], u32) + ", " +
                  src(o[4], u32) + ")");
  }

  void bfind() {
    need(2);
    only({"u32", "s32", "u64", "s64", "shiftamt"});
    const std::string T = type_of(last());
    put(in_->operands[0],
        ns + "bfind<" + T + ">(" + src(in_->operands[1], T) + ", " + (has("shiftamt") ? "true" : "false") + ")");
  }

  void lop3() {
    only({"b32"});
    need(5);
    const auto& o = in_->operands;
    put(o[0],
        ns + "lop3(" + src(o[1], u32) + ", " + src(o[2], u32) + ", " + src(o[3], u32) + ", " + src(o[4], u32) + ")");
  }

  void vabsdiff4() {
    if (in_->opcode != std::vector<std::string>{"vabsdiff4", "u32", "u32", "u32", "add"}) {
      refuse("is not vabsdiff4.u32.u32.u32.add, the one form of it the emulator runs");
    }
    need(4);
    const auto& o = in_->operands;
    put(o[0], ns + "vabsdiff4_add(" + src(o[1], u32) + ", " + src(o[2], u32) + ", " + src(o[3], u32) + ")");
  }

  // ---- warp-wide ----

  void shfl() {
    static const std::map<std::string, int> modes = {{"up", 0}, {"down", 1}, {"bfly", 2}, {"idx", 3}};
    int mode = -1;
    bool sync = false;
    for (std::size_t i = 1; i < in_->opcode.size(); ++i) {
      const std::string& m = in_->opcode[i];
      if (m == "sync") sync = true;
      else if (m == "b32") {
      } else if (modes.count(m)) mode = modes.at(m);
      else refuse("has the modifier ." + m + ", which the emulator does not run");
    }
    if (!sync)
      refuse("is the shfl without .sync that sm_70 and later GPUs do not run; use shfl.sync with a member mask");
    if (mode < 0 || !has("b32")) refuse("has no mode (.up, .down, .bfly, .idx) or is not .b32");
    need(5);
    const auto& o = in_->operands;
    const std::string p = temp();
    emit("bool " + p + " = false;");
    PtxOperand d = o[0];
    const std::vector<PtxOperand> pair = d.pair;
    d.pair.clear();
    put(d, ns + "shfl(" + std::to_string(mode) + ", " + src(o[1], u32) + ", " + src(o[2], u32) + ", " + src(o[3], u32) +
               ", " + src(o[4], u32) + ", &" + p + ", " + where + ")");
    if (!pair.empty()) put(pair[0], p);
  }

  void vote() {
    std::string mode;
    bool sync = false;
    for (std::size_t i = 1; i < in_->opcode.size(); ++i) {
      const std::string& m = in_->opcode[i];
      if (m == "sync") sync = true;
      else if (m == "all" || m == "any" || m == "uni" || m == "ballot") mode = m;
      else if (m == "pred" || m == "b32") {
      } else refuse("has the modifier ." + m + ", which the emulator does not run");
    }
    if (!sync)
      refuse("is the vote without .sync that sm_70 and later GPUs do not run; use vote.sync with a member mask");
    if (mode.empty()) refuse("has no mode (.all, .any, .uni, .ballot)");
    if ((mode == "ballot") != has("b32") || (mode != "ballot") != has("pred"))
      refuse("has the wrong type for its mode");
    need(3);
    const auto& o = in_->operands;
    put(o[0], ns + "vote_" + mode + "(" + src(o[1], "bool") + ", " + src(o[2], u32) + ", " + where + ")");
  }

  void activemask() {
    only({"b32"});
    need(1);
    put(in_->operands[0], ns + "activemask(" + where + ")");
  }

  // ---- comparisons, selection and arithmetic glue ----

  void setp() {
    static const std::map<std::string, std::string> compare = {
        {"eq", "A == B"},
        {"ne", "(A < B || A > B)"},
        {"lt", "A < B"},
        {"le", "A <= B"},
        {"gt", "A > B"},
        {"ge", "A >= B"},
        {"lo", "A < B"},
        {"ls", "A <= B"},
        {"hi", "A > B"},
        {"hs", "A >= B"},
        {"equ", "!(A < B || A > B)"},
        {"neu", "!(A == B)"},
        {"ltu", "!(A >= B)"},
        {"leu", "!(A > B)"},
        {"gtu", "!(A <= B)"},
        {"geu", "!(A < B)"},
        {"num", "(A == A && B == B)"},
        {"nan", "!(A == A && B == B)"},
    };
    std::string cmp, bop;
    for (std::size_t i = 1; i + 1 < in_->opcode.size(); ++i) {
      const std::string& m = in_->opcode[i];
      if (compare.count(m)) cmp = m;
      else if (m == "and" || m == "or" || m == "xor") bop = m;
      else if (m == "ftz") {
      } else refuse("has the modifier ." + m + ", which the emulator does not run");
    }
    if (cmp.empty()) refuse("has no comparison");
    const std::string T = type_of(last());
    need(bop.empty() ? 3 : 4);
    const auto& o = in_->operands;
    const std::string a = temp(), b = temp(), r = temp();
    emit("const " + T + " " + a + " = " + src(o[1], T) + "; const " + T + " " + b + " = " + src(o[2], T) + ";");
    std::string e = compare.at(cmp);
    for (std::size_t pos; (pos = e.find('A')) != std::string::npos;) e.replace(pos, 1, a);
    for (std::size_t pos; (pos = e.find('B')) != std::string::npos;) e.replace(pos, 1, b);
    emit("const bool " + r + " = (" + e + ");");
    const std::string op = bop == "and" ? " && " : bop == "or" ? " || " : " != ";
    const std::string c = bop.empty() ? "" : src(o[3], "bool");
    PtxOperand p = o[0];
    const std::vector<PtxOperand> pair = p.pair;
    p.pair.clear();
    put(p, bop.empty() ? r : "(" + r + op + c + ")");
    if (!pair.empty()) put(pair[0], bop.empty() ? "!" + r : "(!" + r + op + c + ")");
  }

  void selp() {
    need(4);
    const std::string T = type_of(last());
    const auto& o = in_->operands;
    put(o[0], "(" + src(o[3], "bool") + " ? " + src(o[1], T) + " : " + src(o[2], T) + ")");
  }

  void binary() {
    const std::string& op = in_->opcode[0];
    const std::string t = last();
    for (std::size_t i = 1; i + 1 < in_->opcode.size(); ++i) {
      const std::string& m = in_->opcode[i];
      const bool fine =
          (m == "lo" && op == "mul" && !is_float_type(t)) || ((m == "rn" || m == "ftz") && is_float_type(t));
      if (!fine) refuse("has the modifier ." + m + ", which the emulator does not run");
    }
    if (op == "mul" && !is_float_type(t) && !has("lo"))
      refuse("is an integer mul without .lo (the emulator runs mul.lo)");
    const std::string T = type_of(t);
    need(3);
    const auto& o = in_->operands;
    const std::string a = src(o[1], T);
    const std::string b = (op == "shl" || op == "shr") ? src(o[2], u32) : src(o[2], T);
    put(o[0], ns + "alu_" + op + "<" + T + ">(" + a + ", " + b + ")");
  }

  void unary() {
    const std::string t = last();
    const std::string T = type_of(t);
    need(2);
    if (in_->opcode.size() != 2 && !(in_->opcode.size() == 3 && in_->opcode[1] == "ftz")) {
      refuse("has a modifier the emulator does not run");
    }
    put(in_->operands[0], ns + "alu_" + in_->opcode[0] + "<" + T + ">(" + src(in_->operands[1], T) + ")");
  }
};

}  // namespace

std::variant<std::string, PtxRefusal> translate_inline_ptx(const AsmStatement& statement) {
  try {
    return Translator(statement).run();
  } catch (const Refused& r) {
    return PtxRefusal{r.message};
  }
}

}  // namespace gpulab::rewriter
