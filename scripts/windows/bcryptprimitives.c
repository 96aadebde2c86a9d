/*
 * A stand-in for Windows' bcryptprimitives.dll, for the Wine test only.
 *
 * Go programs since Go 1.22 fill their random numbers with ProcessPrng from
 * bcryptprimitives.dll, which every supported Windows has and Wine 8.0 lacks.
 * The Wine test builds this file with MinGW-w64 into the test's own Wine
 * prefix (system32); it is never shipped. ProcessPrng here draws from
 * RtlGenRandom (advapi32's SystemFunction036), the system's own generator.
 *
 * x86_64-w64-mingw32-gcc -shared -O2 -s -o bcryptprimitives.dll \
 *     bcryptprimitives.c -ladvapi32
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		length -= n;
	}
	return TRUE;
}
