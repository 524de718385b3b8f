// Stands for the host API header.
#pragma once
