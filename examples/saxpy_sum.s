// Demo kernels in native Warpforge assembly (scripts/demo.sh runs them on the emulator).

// y[i] = a * x[i] + y[i] for i < n, one thread per element.
.kernel saxpy
        .regs 16
        .param 4                        // float a
        .param 8                        // const float *x
        .param 8                        // float *y
        .param 4                        // unsigned n
        S2R R0, SR_TID_X
        S2R R1, SR_CTAID_X
        S2R R2, SR_NTID_X
        IMAD R0, R1, R2, R0             // i = ctaid.x * ntid.x + tid.x
        LDP R3, [RZ+24]
        ISETP.GE.U32 P0, R0, R3, PT
        @P0 EXIT
        MOV32I R12, 4
        LDP R13, [RZ+0]
        LDP.B64 R4, [RZ+8]
        LDP.B64 R6, [RZ+16]
        IMADWIDE.U32 R4, R0, R12, R4    // &x[i]
        IMADWIDE.U32 R6, R0, R12, R6    // &y[i]
        LDG R8, [R4]
        LDG R9, [R6]
        FFMA R9, R13, R8, R9
        STG [R6], R9
        EXIT

// sums[blockIdx.x] = sum of y over the block's 256 elements: a shared-memory tree reduction with
// barriers in a loop and a divergent branch in every step.
.kernel block_sum
        .regs 16
        .shared 1024
        .param 8                        // const float *y
        .param 8                        // float *sums
        S2R R0, SR_TID_X
        S2R R1, SR_CTAID_X
        S2R R2, SR_NTID_X
        IMAD R3, R1, R2, R0             // i
        MOV32I R12, 4
        LDP.B64 R4, [RZ+0]
        IMADWIDE.U32 R4, R3, R12, R4
        LDG R8, [R4]
        SHL_I R9, R0, 2                 // shared offset of tid
        STS [R9], R8
        SHR_I.U32 R10, R2, 1            // stride = ntid / 2
loop:
        BAR RZ, RZ, RZ, PT, 0
        ISETP_I.EQ P1, R10, 0
        @P1 BRA done
        BSSY B0, join
        ISETP.GE.U32 P0, R0, R10, PT
        @P0 BRA join                    // threads at or above the stride sit this step out
        IADD R11, R0, R10, PT, PT
        SHL_I R11, R11, 2
        LDS R6, [R11]
        LDS R7, [R9]
        FADD R7, R7, R6
        STS [R9], R7
join:
        BSYNC B0
        SHR_I.U32 R10, R10, 1
        BRA loop
done:
        ISETP_I.NE P2, R0, 0
        @P2 EXIT
        LDS R6, [RZ]
        LDP.B64 R4, [RZ+8]
        IMADWIDE.U32 R4, R1, R12, R4
        STG [R4], R6
        EXIT
