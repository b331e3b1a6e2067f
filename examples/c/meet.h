/*
 * Two host functions that meet, for the programs that check two streams
 * run at the same time (14_cross_stream, 16_control): launch meet with
 * argument 0 on one stream and 1 on the other; each marks its arrival and
 * waits up to 5 s for the other.
 */
#ifndef GOCANN_EXAMPLES_MEET_H
#define GOCANN_EXAMPLES_MEET_H

#include "common.h"

#include <pthread.h>

static pthread_mutex_t meet_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t meet_cv = PTHREAD_COND_INITIALIZER;
static int meet_arrived[2], meet_met[2];

static void meet(void *arg)
{
    int me = (int)(intptr_t)arg;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 5;
    pthread_mutex_lock(&meet_mu);
    meet_arrived[me] = 1;
    pthread_cond_broadcast(&meet_cv);
    while (!meet_arrived[1 - me] && pthread_cond_timedwait(&meet_cv, &meet_mu, &until) == 0) {
    }
    meet_met[me] = meet_arrived[1 - me];
    pthread_mutex_unlock(&meet_mu);
}

/* meet_reset readies the next meeting. */
static void meet_reset(void)
{
    pthread_mutex_lock(&meet_mu);
    meet_arrived[0] = meet_arrived[1] = meet_met[0] = meet_met[1] = 0;
    pthread_mutex_unlock(&meet_mu);
}

/* met reports whether both host functions of the last meeting ran at the
 * same time. */
static int met(void)
{
    pthread_mutex_lock(&meet_mu);
    int both = meet_met[0] && meet_met[1];
    pthread_mutex_unlock(&meet_mu);
    return both;
}

#endif
