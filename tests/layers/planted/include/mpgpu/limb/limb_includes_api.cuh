// Planted: an inner layer including the host API.
#pragma once
#include "mpgpu/context.hpp"
