/*
 * doctor_json: the doctor report (doctor.h) as JSON, the public interface
 * of `wheelarch doctor --json` (README.md): "site_packages", "platform",
 * "distributions" (each with its "verdicts", "fix" and --verify's counts),
 * "installed", "without_gpu_code", "without_record", "incomplete", "exit"
 * and "verify", in that order.
 */
#ifndef WHEELARCH_DOCTOR_JSON_H
#define WHEELARCH_DOCTOR_JSON_H

#include <jansson.h>

#include "doctor.h"

/* The report as `doctor --json` prints it.  New reference. */
json_t *doctor_result_json(const struct doctor_result *r);

#endif
