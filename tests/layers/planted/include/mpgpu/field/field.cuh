// Stands for a field header.
#pragma once
