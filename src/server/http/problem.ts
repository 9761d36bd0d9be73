export { ServiceProblem, problemResponse, type ServiceProblemCode } from '../../http/problem.js';
