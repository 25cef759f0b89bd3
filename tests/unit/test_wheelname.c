/* Unit tests: wheel file names. */
#include <stdlib.h>

#include "harness.h"
#include "wheelname.h"

int main(void)
{
    struct wheel_name w;
    OK(wheelname_parse("torch-2.8.0+cu128-cp312-cp312-manylinux_2_28_x86_64.whl", &w, NULL) == 0,
       "parse torch");
    STR_EQ(w.project, "torch", "project");
    STR_EQ(w.version, "2.8.0+cu128", "version");
    STR_EQ(w.public_version, "2.8.0", "public");
    STR_EQ(w.local, "cu128", "local");
    OK(w.build == NULL, "no build tag");
    STR_EQ(w.python, "cp312", "python");
    STR_EQ(w.abi, "cp312", "abi");
    STR_EQ(w.platform, "manylinux_2_28_x86_64", "platform");
    STR_EQ(wheelname_platform_id(w.platform), "linux-x86_64", "platform id");
    wheelname_free(&w);

    OK(wheelname_parse("/x/y/torch-1.13.0%2Bcu117-cp310-cp310-win_amd64.whl", &w, NULL) == 0,
       "percent-encoded");
    STR_EQ(w.filename, "torch-1.13.0+cu117-cp310-cp310-win_amd64.whl", "decoded file name");
    STR_EQ(w.local, "cu117", "local from %2B");
    STR_EQ(wheelname_platform_id(w.platform), "windows-x86_64", "windows");
    wheelname_free(&w);

    OK(wheelname_parse("torch-2.0.1-cp38-cp38-manylinux2014_aarch64.whl", &w, NULL) == 0,
       "aarch64");
    OK(w.local == NULL, "no local label");
    STR_EQ(wheelname_platform_id(w.platform), "linux-aarch64", "aarch64 id");
    wheelname_free(&w);

    OK(wheelname_parse("Foo.Bar_baz-1.0-build1-py2.py3-none-any.whl", &w, NULL) != 0,
       "build tag must start with a digit");
    OK(wheelname_parse("Foo.Bar_baz-1.0-12-py2.py3-none-any.whl", &w, NULL) == 0, "build tag");
    STR_EQ(w.build, "12", "build");
    STR_EQ(w.normalized, "foo-bar-baz", "PEP 503 name");
    STR_EQ(w.python, "py2.py3", "compressed tag set");
    STR_EQ(wheelname_platform_id(w.platform), "any", "any");
    wheelname_free(&w);

    static const char *const bad[] = {"torch.whl",
                                      "torch-2.8.0.whl",
                                      "a-b-c-d.whl",
                                      "torch-2.8.0-cp312-cp312-linux_x86_64.zip",
                                      "to<rch-2.8.0-cp312-cp312-linux_x86_64.whl",
                                      "torch-2.8.0+-cp312-cp312-linux_x86_64.whl",
                                      "a-b-c-d-e-f-g.whl",
                                      "-1-py3-none-any.whl"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        OK(wheelname_parse(bad[i], &w, NULL) != 0, "reject %s", bad[i]);
        wheelname_free(&w);
    }
    char *n = wheelname_normalize("Torch__Vision..X");
    STR_EQ(n, "torch-vision-x", "normalize runs");
    free(n);
    return harness_done();
}
