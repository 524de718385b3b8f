// Planted: a folder that no rule gives a layer.
#pragma once
