// Allowed: host sources may use batch/*.hpp.
#pragma once
