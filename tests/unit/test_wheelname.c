/* Unit tests: wheel file names. */
#include <stdlib.h>

#include "harness.h"
#include "wheelmeta.h"
#include "wheelname.h"
#include <string.h>

/* METADATA: Requires-Dist, and what each requirement names and pins. */
static void test_meta(void)
{
    OK(wheelmeta_is_member("torch-2.8.0.dist-info/METADATA"), "METADATA member");
    OK(!wheelmeta_is_member("x/torch-2.8.0.dist-info/METADATA"), "not at the top");
    OK(!wheelmeta_is_member("torch-2.8.0.dist-info/RECORD"), "another file");
    OK(!wheelmeta_is_member(".dist-info/METADATA"), "no name");
    static const char text[] =
        "Metadata-Version: 2.1\r\nName: torch\r\n"
        "Requires-Dist: nvidia-cudnn-cu12==9.10.2.21; platform_system == \"Linux\"\r\n"
        "requires-dist: nvidia_cublas_cu12 (==12.8.4.1)\r\n"
        "Requires-Dist: typing-extensions\r\n  >=4.10.0\r\n"
        "Requires-Dist: bad\x01control\r\n"
        "Requires-Dist:    \r\n"
        "Requires-Dist: triton===3.4.0\r\n"
        "Requires-Dist: numpy==2.*\r\n"
        "Requires-Dist: opt-einsum[x]==3.3; extra == \"opt\"\r\n"
        "\r\n"
        "Requires-Dist: in-the-description==1\r\n";
    char **req;
    size_t n;
    wheelmeta_requires(text, sizeof text - 1, &req, &n);
    INT_EQ(n, 6, "six Requires-Dist (the blank and the control character left out)");
    if (n == 6) {
        STR_EQ(req[0], "nvidia-cudnn-cu12==9.10.2.21; platform_system == \"Linux\"", "as written");
        STR_EQ(req[2], "typing-extensions >=4.10.0", "continuation joined");
        static const char *const name[] = {
            "nvidia-cudnn-cu12", "nvidia-cublas-cu12", "typing-extensions", "triton", "numpy",
            "opt-einsum"};
        static const char *const pin[] = {"9.10.2.21", "12.8.4.1", NULL, "3.4.0", NULL, "3.3"};
        for (size_t i = 0; i < 6; i++) {
            char *nm, *pn;
            OK(wheelmeta_requirement(req[i], &nm, &pn) == 0, "requirement %zu parses", i);
            STR_EQ(nm, name[i], "requirement's name");
            OK(pin[i] ? pn && strcmp(pn, pin[i]) == 0 : pn == NULL, "pin of %s: %s", name[i],
               pn ? pn : "(none)");
            free(nm);
            free(pn);
        }
    }
    wheelmeta_free(req, n);
    char *nm, *pn;
    OK(wheelmeta_requirement("==1.0", &nm, &pn) < 0 && !nm && !pn, "no name: refused");
    /* markers on a platform */
    static const char cudnn[] = "nvidia-cudnn-cu12==9.10.2.21; platform_system == \"Linux\" and "
                                "platform_machine == \"x86_64\"";
    OK(wheelmeta_marker_applies(cudnn, "linux-x86_64"), "Linux x86_64 marker on linux-x86_64");
    OK(!wheelmeta_marker_applies(cudnn, "linux-aarch64"), "not on linux-aarch64");
    OK(!wheelmeta_marker_applies(cudnn, "windows-x86_64"), "not on Windows");
    OK(wheelmeta_marker_applies("x; sys_platform == 'win32'", "windows-x86_64"), "win32");
    OK(wheelmeta_marker_applies("x; platform_machine == \"AMD64\"", "windows-x86_64"), "AMD64");
    OK(wheelmeta_marker_applies("x; platform_machine == 'ARM64'", "windows-arm64"),
       "ARM64: platform.machine() on Windows on Arm");
    OK(!wheelmeta_marker_applies("x; platform_machine == 'AMD64'", "windows-arm64"),
       "Windows on Arm is not AMD64");
    OK(!wheelmeta_marker_applies("x; platform_system != \"Linux\"", "linux-x86_64"), "!=");
    OK(!wheelmeta_marker_applies("x; extra == \"opt\"", "linux-x86_64"), "an extra: optional");
    OK(wheelmeta_marker_applies("x; python_version >= \"3.9\"", "linux-x86_64"),
       "another variable: taken to hold");
    OK(wheelmeta_marker_applies("x; platform_system == \"Windows\" or python_version < \"4\"",
                                "linux-x86_64"),
       "'or': taken to hold");
    OK(wheelmeta_marker_applies("x", "linux-aarch64"), "no marker: holds");
    /* bounded: 501 fields keep 500; a 2,000-byte field is left out */
    struct {
        char *buf;
        size_t len;
    } big = {malloc(600 * 40 + 3000), 0};
    for (int i = 0; i < 501; i++)
        big.len += (size_t)sprintf(big.buf + big.len, "Requires-Dist: p%d==1\n", i);
    big.len += (size_t)sprintf(big.buf + big.len, "Requires-Dist: ");
    memset(big.buf + big.len, 'a', 2000);
    big.len += 2000;
    wheelmeta_requires(big.buf, big.len, &req, &n);
    INT_EQ(n, WHEELMETA_MAX_REQUIRES, "at most 500 requirements");
    wheelmeta_free(req, n);
    memcpy(big.buf, "Requires-Dist: ", 15);
    memset(big.buf + 15, 'a', 2000);
    wheelmeta_requires(big.buf, 2015, &req, &n);
    INT_EQ(n, 0, "an over-long field is left out");
    wheelmeta_free(req, n);
    free(big.buf);
}

int main(void)
{
    test_meta();
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

    /* AMD's whl-next device package, as third-party installers fetch it */
    OK(wheelname_parse("amd_torch_device_gfx1151-2.13.0+rocm10.0.0-cp313-cp313-linux_x86_64.whl",
                       &w, NULL) == 0,
       "amd_torch_device");
    char *norm = wheelname_normalize(w.project);
    STR_EQ(norm, "amd-torch-device-gfx1151", "the device package's project, normalised");
    free(norm);
    STR_EQ(w.local, "rocm10.0.0", "its label");
    STR_EQ(wheelname_platform_id(w.platform), "linux-x86_64", "linux");
    wheelname_free(&w);

    /* NVIDIA's Windows on Arm torch, as its index and lock files name it */
    OK(wheelname_parse("https://pypi.nvidia.com/nvtorch_oot/torch/"
                       "torch-2.14.0%2Bcu134-cp313-cp313-win_arm64.whl",
                       &w, NULL) == 0,
       "win_arm64");
    STR_EQ(w.public_version, "2.14.0", "public version");
    STR_EQ(w.local, "cu134", "local");
    STR_EQ(w.python, "cp313", "python");
    STR_EQ(wheelname_platform_id(w.platform), "windows-arm64", "Windows on Arm");
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
