/* LD_PRELOAD shim for tests/stall.sh: while the file named by $COMB_EXT_STALL_FLAG exists, every
 * fsync or fdatasync of a file or directory under a "comb_ext" directory first sleeps as many
 * seconds as the file holds (10 if it holds no number), as a network volume or a paused cloud disk
 * would. Everything else, and everything while the file is absent, goes straight through. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void stall_if_asked(int fd)
{
    const char *flag = getenv("COMB_EXT_STALL_FLAG");
    char link[64], path[4096];
    ssize_t len;
    FILE *f;
    int seconds = 10;

    if (flag == NULL || access(flag, F_OK) != 0)
        return;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    len = readlink(link, path, sizeof path - 1);
    if (len <= 0)
        return;
    path[len] = '\0';
    if (strstr(path, "/comb_ext/") == NULL &&
        (len < 9 || strcmp(path + len - 9, "/comb_ext") != 0))
        return;
    f = fopen(flag, "r");
    if (f != NULL)
    {
        if (fscanf(f, "%d", &seconds) != 1)
            seconds = 10;
        fclose(f);
    }
    sleep(seconds);
}

int fsync(int fd)
{
    static int (*real)(int);

    if (real == NULL)
        real = (int (*)(int)) dlsym(RTLD_NEXT, "fsync");
    stall_if_asked(fd);
    return real(fd);
}

int fdatasync(int fd)
{
    static int (*real)(int);

    if (real == NULL)
        real = (int (*)(int)) dlsym(RTLD_NEXT, "fdatasync");
    stall_if_asked(fd);
    return real(fd);
}
