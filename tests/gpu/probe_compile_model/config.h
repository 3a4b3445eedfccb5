// The program's own config.h: `#include "config.h"` in main.cu must find this one, next to it,
// and not include/config.h, although include/ is given with -I.
#pragma once
#define PROBE_CONFIG_FROM "program folder"
