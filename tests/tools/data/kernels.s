// Kernels for the driver tests (tests/tools/driver_test.cpp), in native Warpforge assembly.

        .const
        .align 4
scale:  .float 0.5

        .global
        .align 8
counter: .word 0

// c[i] = (a[i] + b[i]) * scale, for i < n
.kernel vadd
        .regs 16
        .param 8                        // const float *a
        .param 8                        // const float *b
        .param 8                        // float *c
        .param 4                        // unsigned n
        S2R R0, SR_TID_X
        S2R R1, SR_CTAID_X
        S2R R2, SR_NTID_X
        IMAD R0, R1, R2, R0             // i = ctaid.x * ntid.x + tid.x
        LDP R3, [RZ+24]
        ISETP.GE.U32 P0, R0, R3, PT
        @P0 EXIT
        MOV32I R12, 4
        LDP.B64 R4, [RZ+0]
        LDP.B64 R6, [RZ+8]
        LDP.B64 R8, [RZ+16]
        IMADWIDE.U32 R4, R0, R12, R4    // &a[i]
        IMADWIDE.U32 R6, R0, R12, R6    // &b[i]
        IMADWIDE.U32 R8, R0, R12, R8    // &c[i]
        LDG R10, [R4]
        LDG R11, [R6]
        LDC R13, [RZ+scale]
        FADD R10, R10, R11
        FMUL R10, R10, R13
        STG [R8], R10
        EXIT

// counter += 1 in every thread: a module variable reached through a relocation
.kernel count
        MOV32I R2, %lo(counter)
        MOV32I R3, %hi(counter)
        MOV32I R4, 1
        ATOM.ADD.GLOBAL RZ, [R2], R4, RZ
        EXIT

// stops the kernel with __trap()
.kernel fault
        TRAP 0
