// Stands for the device API.
#pragma once
