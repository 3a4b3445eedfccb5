// Another config.h, in an -I folder: found by the headers of this folder, not by main.cu.
#pragma once
#define PROBE_INCLUDE_CONFIG_FROM "include folder"
