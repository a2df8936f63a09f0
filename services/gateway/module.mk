$(eval $(call SERVICE,gateway))
