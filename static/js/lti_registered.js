/* lti_registered.js: the facilitator registered itself with a learning platform (LTI
 * dynamic registration); the platform's page that opened this one closes it when told. */
(window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*');
