//go:build amd64 && !purego

#include "textflag.h"

// The register of a reflected CRC is congruent to the bytes still to come:
// XORing it into the first four bytes and starting from zero gives the
// same CRC. Folding keeps that congruence. A 128-bit lane L (its first
// eight bytes H, the higher powers, and its last eight Lo) stands for
// L = H*x^64 + Lo; moved d bits further on it is congruent to
// H*(x^(d+64) mod P) + Lo*(x^d mod P), at most 96 bits, which is XORed
// into the lane d bits later. foldK gives both constants for each d. The
// one lane left at the end goes through the CRC32 instruction, which
// reduces it exactly.

// FOLDZ moves each 128-bit lane of acc on by the distance whose constants
// k holds in each lane, and XORs next (register or memory) into it.
#define FOLDZ(k, acc, tmp, next) \
	VPCLMULQDQ $0x00, k, acc, tmp; \
	VPCLMULQDQ $0x11, k, acc, acc; \
	VPTERNLOGD $0x96, next, tmp, acc

// FOLDX is FOLDZ for one lane, with SSE; next is a register.
#define FOLDX(k, acc, tmp, next) \
	MOVOA     acc, tmp; \
	PCLMULQDQ $0x00, k, tmp; \
	PCLMULQDQ $0x11, k, acc; \
	PXOR      tmp, acc; \
	PXOR      next, acc

// FINISH folds the 16-byte blocks left into X0 (constants for 128 bits in
// X5), passes X0 through the CRC32 instruction and returns the register.
#define FINISH(loop, done) \
loop: \
	CMPQ   CX, $16; \
	JB     done; \
	MOVOU  0(SI), X1; \
	FOLDX(X5, X0, X6, X1); \
	ADDQ   $16, SI; \
	SUBQ   $16, CX; \
	JMP    loop; \
done: \
	MOVQ   X0, AX; \
	PEXTRQ $1, X0, BX; \
	XORL   DX, DX; \
	CRC32Q AX, DX; \
	CRC32Q BX, DX; \
	MOVL   DX, ret+32(FP); \
	RET

// func foldAVX512(crc uint32, p []byte) uint32
TEXT ·foldAVX512(SB), NOSPLIT, $0-36
	MOVL crc+0(FP), AX
	MOVQ p_base+8(FP), SI
	MOVQ p_len+16(FP), CX

	// Four accumulators of 64 bytes, the register XORed into the first.
	VMOVD     AX, X4
	VMOVDQU64 0(SI), Z0
	VPXORQ    Z4, Z0, Z0
	VMOVDQU64 64(SI), Z1
	VMOVDQU64 128(SI), Z2
	VMOVDQU64 192(SI), Z3
	ADDQ      $256, SI
	SUBQ      $256, CX

	// 256 bytes a turn: each lane moves on 2048 bits.
	VBROADCASTI32X4 ·foldK+0(SB), Z5

loop256:
	CMPQ CX, $256
	JB   four
	FOLDZ(Z5, Z0, Z6, 0(SI))
	FOLDZ(Z5, Z1, Z7, 64(SI))
	FOLDZ(Z5, Z2, Z8, 128(SI))
	FOLDZ(Z5, Z3, Z9, 192(SI))
	ADDQ $256, SI
	SUBQ $256, CX
	JMP  loop256

four:
	// The four into Z3, 512 bits at a time, then 64 bytes a turn.
	VBROADCASTI32X4 ·foldK+16(SB), Z5
	FOLDZ(Z5, Z0, Z6, Z1)
	FOLDZ(Z5, Z0, Z6, Z2)
	FOLDZ(Z5, Z0, Z6, Z3)

loop64:
	CMPQ CX, $64
	JB   lanes
	FOLDZ(Z5, Z0, Z6, 0(SI))
	ADDQ $64, SI
	SUBQ $64, CX
	JMP  loop64

lanes:
	// The four lanes of Z0 into X0, 128 bits at a time.
	VEXTRACTI32X4 $1, Z0, X1
	VEXTRACTI32X4 $2, Z0, X2
	VEXTRACTI32X4 $3, Z0, X3
	VZEROUPPER
	MOVOU ·foldK+32(SB), X5
	FOLDX(X5, X0, X6, X1)
	FOLDX(X5, X0, X6, X2)
	FOLDX(X5, X0, X6, X3)
	FINISH(loop16, done)
