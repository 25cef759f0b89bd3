/*
 * feed_home: assets/answers.js, the answers the home page's filter shows
 * at once, from the home page's data and the GPU pages' answers.
 */
#ifndef WHEELARCH_FEED_HOME_H
#define WHEELARCH_FEED_HOME_H

struct sitedata;

/* The script: window.wheelarchAnswers ({"<device>[/<system>]": {"src":
 * its device file, "<platform>": answer}}) and window.wheelarchCommands
 * ({"lines": [[pip, uv], ...], "uninstall"}).  Caller frees. */
char *feed_home_answers_js(const struct sitedata *d);

#endif
