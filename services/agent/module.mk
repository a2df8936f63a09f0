$(eval $(call SERVICE,agent))
