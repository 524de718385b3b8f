// Allowed: ntt may include field and its own folder (relative too).
#pragma once
#include "mpgpu/field/field.cuh"
#include "sibling.cuh"
#include <mpgpu/field/field.cuh>
#include <vector>
