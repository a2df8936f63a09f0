/*  =========================================================================
    gw_when - when a batch session may start (starts_at), as users write it

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define WHEN_MAX  64
#define DELAY_MAX (INT64_C(366) * 86400) //  a year, in seconds

//  Reads exactly digits decimal digits at *p into *value; advances *p.
static bool
s_digits(const char **p, int digits, int *value)
{
    *value = 0;
    for (int i = 0; i < digits; i++) {
        if (!isdigit((unsigned char) (*p)[i]))
            return false;
        *value = *value * 10 + ((*p)[i] - '0');
    }
    *p += digits;
    return true;
}

//  Days since 1970-01-01 of a proleptic Gregorian date (valid input).
static int64_t
s_days(int year, int month, int day)
{
    year -= month <= 2;
    int64_t era = (year >= 0 ? year : year - 399) / 400;
    int64_t yoe = year - era * 400;
    int64_t doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static bool
s_leap(int year)
{
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

//  An ISO 8601 date and time; false when text is not one.
static bool
s_absolute(const char *p, int64_t *at_us)
{
    static const int month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int year, month, day, hour, minute, second;
    if (!s_digits(&p, 4, &year) || *p++ != '-' || !s_digits(&p, 2, &month) ||
        *p++ != '-' || !s_digits(&p, 2, &day) || (*p != 'T' && *p != ' '))
        return false;
    p++;
    if (!s_digits(&p, 2, &hour) || *p++ != ':' || !s_digits(&p, 2, &minute) ||
        *p++ != ':' || !s_digits(&p, 2, &second))
        return false;
    if (month < 1 || month > 12 || day < 1 ||
        day > month_days[month - 1] + (month == 2 && s_leap(year)) || hour > 23 ||
        minute > 59 || second > 59)
        return false;
    int64_t micro = 0;
    if (*p == '.') {
        p++;
        int digits = 0;
        while (isdigit((unsigned char) *p)) {
            if (digits < 6)
                micro = micro * 10 + (*p - '0');
            digits++;
            p++;
        }
        if (digits == 0)
            return false;
        for (; digits < 6; digits++)
            micro *= 10;
    }
    int64_t offset = 0;
    if (*p == 'Z' || *p == 'z')
        p++;
    else if (*p == '+' || *p == '-') {
        int sign = *p++ == '-' ? -1 : 1, zone_hour, zone_minute;
        if (!s_digits(&p, 2, &zone_hour) || zone_hour > 23)
            return false;
        if (*p == ':')
            p++;
        if (!s_digits(&p, 2, &zone_minute) || zone_minute > 59)
            return false;
        offset = sign * (zone_hour * 3600 + zone_minute * 60);
    }
    if (*p)
        return false;
    int64_t seconds =
        s_days(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
    *at_us = seconds * 1000000 + micro;
    return true;
}

//  A delay such as 1d12h or 30m; false when text is not one.
static bool
s_relative(const char *p, int64_t *seconds)
{
    static const char units[] = "dhms";
    static const int64_t scale[] = {86400, 3600, 60, 1};
    if (*p == '+')
        p++;
    int next = 0; //  units must come in order, each once
    bool any = false;
    *seconds = 0;
    while (*p) {
        int64_t value = 0;
        int digits = 0;
        while (isdigit((unsigned char) *p) && digits < 9) {
            value = value * 10 + (*p++ - '0');
            digits++;
        }
        const char *unit = digits ? strchr(units + next, *p) : NULL;
        if (!unit || !*p)
            return false;
        next = (int) (unit - units) + 1;
        *seconds += value * scale[unit - units];
        any = true;
        p++;
    }
    return any && *seconds <= DELAY_MAX;
}

int
gw_when_parse(const char *text, int64_t now_us, int64_t *at_us, bus_error_t *err)
{
    int64_t seconds;
    if (text && strlen(text) <= WHEN_MAX) {
        if (s_absolute(text, at_us))
            return BUS_OK;
        if (s_relative(text, &seconds)) {
            *at_us = now_us + seconds * 1000000;
            return BUS_OK;
        }
    }
    return bus_error_set(err, BUS_STATUS_INVALID,
                         "starts_at: an ISO 8601 time (2026-11-21T18:30:00Z) or a delay"
                         " such as 30m, 1h or 1d12h");
}
