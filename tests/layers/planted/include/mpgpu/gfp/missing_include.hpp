// Planted: an include of an mpgpu header that does not exist.
#pragma once
#include "mpgpu/gfp/no_such_header.hpp"
