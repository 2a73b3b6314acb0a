/* Exits after a delay, with or without a region call, while the runtime's early start may
 * still be opening the device (h44, issue 29).  Arguments: microseconds to wait, the exit
 * status, and how to end: "exit" (exit() with the status), "return" (from main), "region" (one
 * region call first, then exit()), "setenv" (sets TRANSLATE_DEVICE to the fourth argument, then
 * one region call), "fork" (a child that exits with the status at once; the parent waits for it,
 * then makes a region call), "forkregion" (the same, but the child makes a region call first). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double total(int n)
{
    double a[256];
#pragma translate kernel fill_k
    for (int i = 0; i < n; i++)
        a[i] = 0.5 * i;
#pragma translate end kernel
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

static void pause_us(long us)
{
    struct timespec ts;
    ts.tv_sec = us / 1000000;
    ts.tv_nsec = (us % 1000000) * 1000;
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    long us = argc > 1 ? atol(argv[1]) : 0;
    int status = argc > 2 ? atoi(argv[2]) : 0;
    const char *how = argc > 3 ? argv[3] : "exit";
    printf("start\n");   /* buffered: lost if the exit crashes */
    pause_us(us);
    if (strcmp(how, "return") == 0)
        return status;
    if (strcmp(how, "setenv") == 0 && argc > 4)
        setenv("TRANSLATE_DEVICE", argv[4], 1);
    if (strncmp(how, "fork", 4) == 0) {
        int child = 0;
        pid_t pid = fork();
        if (pid == 0) {
            if (strcmp(how, "forkregion") == 0)
                printf("child %g\n", total(256));
            else
                printf("child\n");
            exit(status);
        }
        waitpid(pid, &child, 0);
        printf("child status %d\n", WIFEXITED(child) ? WEXITSTATUS(child) : -1);
    }
    if (strcmp(how, "exit") != 0)
        printf("total %g\n", total(256));
    exit(status);
}
