# Offline OCI images for the agent (deploy/images/build; see deploy/images/README.md).
# Each lands in $(IMAGES_DIR)/<name>, an umoci layout with the tag latest. The script
# is idempotent (a recipe stamp), so these targets are phony and cheap when up to date.
#
#   make images          busybox and python
#   make image-busybox   seconds; the default image for tests
#   make image-python    Debian 12 + python3; about half a minute cold, cached after
#   make image-jupyter   python + Debian's jupyter-notebook; minutes cold, not in images
#   make image-gpu-probe busybox + build/gpu/gpu-probe and its glibc (test/gpu)

IMAGES_DIR ?= build/images
IMAGE_NAMES := busybox python jupyter gpu-probe

.PHONY: images $(addprefix image-,$(IMAGE_NAMES))
images: image-busybox image-python

$(addprefix image-,$(IMAGE_NAMES)): image-%: deps
	$(Q)deploy/images/build $* $(IMAGES_DIR)/$*

image-gpu-probe: $(GPU_PROBE)
