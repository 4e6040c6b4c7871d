/* Empty on purpose: in shim mode kcheck_hip.h is force-included instead of ROCm's header. */
