// The assembler directives that differ between object formats, for the emulator's hand-written
// functions (the fiber switch): ELF (Linux) and Mach-O (macOS: symbols carry a leading
// underscore, there is no .type/.size, and no note marks the stack non-executable).
// Used inside a top-level asm("...") statement, as string literals to concatenate.
#pragma once

#if defined(__APPLE__) && defined(__MACH__)
#define GPULAB_ASM_SYMBOL(name) "_" #name
#define GPULAB_ASM_FUNCTION(name) ".text\n.globl _" #name "\n.p2align 4\n_" #name ":\n"
#define GPULAB_ASM_FUNCTION_END(name) ""
#define GPULAB_ASM_FILE_END ""
#elif defined(__ELF__)
#define GPULAB_ASM_SYMBOL(name) #name
// %function and %progbits: '@' starts a comment in some ELF assemblers' syntax, '%' is read by all.
#define GPULAB_ASM_FUNCTION(name) ".text\n.globl " #name "\n.type " #name ",%function\n.p2align 4\n" #name ":\n"
#define GPULAB_ASM_FUNCTION_END(name) ".size " #name ",.-" #name "\n"
#define GPULAB_ASM_FILE_END ".section .note.GNU-stack,\"\",%progbits\n.text\n"
#else
#error "gpulab's fiber switch knows ELF (Linux) and Mach-O (macOS) objects; configure with -DGPULAB_EMU_FIBERS=boost"
#endif
