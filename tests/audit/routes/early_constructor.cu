// Audit route: code that runs before or after main. A constructor, one with a priority, a
// destructor, a pointer in .preinit_array, an IFUNC symbol (its resolver runs while the program
// loads), a constructor named like the compiler's own (caught by its name in the source) and two
// hooks that start-up code calls when a program defines them.
// The global std::vector's initialisation is the compiler's own and is not flagged.
#include <vector>

std::vector<int> table(16, 1);

__attribute__((constructor)) static void early() { table[0] = 2; }
__attribute__((constructor(101))) static void earlier() { table[1] = 3; }
__attribute__((destructor)) static void late() { table[2] = 4; }
static void preinit() {}
__attribute__((section(".preinit_array"), used)) static void (*preinit_entry)() = preinit;

extern "C" {
static int answer() { return 42; }
typedef int answer_function();
static answer_function* resolve_answer() { return &answer; }
int resolved_answer() __attribute__((ifunc("resolve_answer")));
__attribute__((constructor)) void _GLOBAL__sub_I_forged() { table[3] = 5; }
}

void reduce_sum_int(const int*, int* out, int) { *out = table[0] + resolved_answer(); }

// Hooks the C runtime's start-up code calls when a program defines them.
extern "C" void __gmon_start__() { table[4] = 6; }
extern "C" void _ITM_registerTMCloneTable(void*, unsigned long) { table[5] = 7; }
