$(eval $(call SERVICE,accounting))
