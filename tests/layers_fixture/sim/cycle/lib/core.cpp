// planted: the cycle model includes the emulator
#include "warpforge/cycle/core.h"
#include "warpforge/func/device.h"
#include <vector>
