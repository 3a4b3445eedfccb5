// Included by reverse.cuh from its own folder (not the program's): the tile width.
#pragma once

constexpr int kTile = 32;
