$(eval $(call SERVICE,wsproxy))
