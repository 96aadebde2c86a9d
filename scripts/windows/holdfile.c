/*
 * holdfile FILE: opens FILE so that nobody may write it (as an antivirus
 * scanner or a stuck program may), says "holding" and waits to be ended.
 * For the Wine test only: an installer that cannot replace Hoist's program
 * must say so and fail, never report success. Never shipped.
 *
 * x86_64-w64-mingw32-gcc -municode -O2 -s -o holdfile.exe holdfile.c
 */
#include <windows.h>
#include <stdio.h>

int wmain(int argc, wchar_t **argv)
{
	HANDLE h;

	if (argc != 2) {
		fprintf(stderr, "usage: holdfile FILE\n");
		return 2;
	}
	h = CreateFileW(argv[1], GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		printf("error %lu\n", GetLastError());
		return 1;
	}
	printf("holding\n");
	fflush(stdout);
	Sleep(INFINITE);
	return 0;
}
