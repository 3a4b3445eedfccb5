// Found through -I: the block size and the element type come from -D options.
#pragma once

#ifndef BLOCK
#error "build with -D BLOCK=<threads per block>"
#endif

#ifdef USE_DOUBLE
typedef double real;
#define REAL_NAME "double"
#else
typedef float real;
#define REAL_NAME "float"
#endif
