// A header of the -I folder that includes its own neighbour: "config.h" here is include/config.h.
#pragma once
#include "config.h"
#define PROBE_SIZES_SEE PROBE_INCLUDE_CONFIG_FROM
