/* tests/agents/emu/cuda_bf16.h: the host emulation's bf16 (ka_task.h). */
#include "ka_task.h"
