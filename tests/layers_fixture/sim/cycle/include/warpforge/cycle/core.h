#pragma once
#include "warpforge/isa/config.h"
